// Calls of the sign-in pages. Types come from @piibs/shared/auth as types only (no zod at run time).
import type { CaChallengeResult, InitCheckResult, TokenResult } from '@piibs/shared/auth';
import type { InitForm } from '@piibs/shared/password-forms';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { toBearer } from '@/lib/auth-storage.ts';
import { request } from '@/lib/http.ts';
import { requestInline } from '@/lib/request-inline.ts';

// The captcha is fetched by a plain hook (captcha.ts): the login page carries no query client.

export const initCheckQuery = queryOptions({
  queryKey: ['init', 'check'],
  queryFn: () => request<InitCheckResult>({ url: 'api/init/check', method: 'get' }),
  gcTime: 0,
});

export function useInitCheck() {
  return useQuery(initCheckQuery);
}

/** POST /api/init; refusals (400, 409) come back as ApiError for the form. */
export function initialise(form: InitForm): Promise<InitCheckResult> {
  return requestInline<InitCheckResult>({ url: 'api/init', method: 'post', data: form });
}

export function fetchCaChallenge(): Promise<CaChallengeResult> {
  return request<CaChallengeResult>({ url: 'api/auth/ca/challenge', method: 'get' });
}

/** POST /api/auth/handoff/exchange: a one-time hand-off token for a session. */
export function exchangeHandoff(token: string): Promise<TokenResult> {
  return requestInline<TokenResult>({ url: 'api/auth/handoff/exchange', method: 'post', data: { token } });
}

/** POST /api/users/updatePass with a token held in memory (the psPower-0 step; it is never stored). */
export function changePasswordWith(token: string, oldPass: string, newPass: string) {
  return requestInline<{ psPower: number; revokedSessions: number }>({
    url: 'api/users/updatePass',
    method: 'post',
    data: { oldPass, newPass },
    headers: { Authorization: toBearer(token) },
  });
}

/** Revokes a token held in memory; best effort. */
export async function revokeToken(token: string): Promise<void> {
  try {
    await requestInline({
      url: 'api/auth/logout',
      method: 'post',
      headers: { Authorization: toBearer(token) },
    });
  } catch {
    // It expires on its own.
  }
}

// Personal-center calls. Types from @piibs/shared/auth are types only.
import type { AuthUser, LoginRecord, ProfileForm, SessionInfo } from '@piibs/shared/auth';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/http.ts';
import { requestInline } from '@/lib/request-inline.ts';

export function avatarUrl(file: string): string {
  return `/api/avatar/${encodeURIComponent(file)}`;
}

export const sessionsQuery = queryOptions({
  queryKey: ['auth', 'sessions'],
  queryFn: () => request<SessionInfo[]>({ url: 'api/auth/sessions', method: 'get' }),
});

export const loginsQuery = queryOptions({
  queryKey: ['auth', 'logins'],
  queryFn: () => request<LoginRecord[]>({ url: 'api/auth/logins', method: 'get' }),
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

export function useLogins() {
  return useQuery(loginsQuery);
}

export function updateProfile(form: ProfileForm): Promise<AuthUser> {
  return request<AuthUser>({ url: 'api/users/center', method: 'put', data: form });
}

/** Refusals (wrong old password …) come back as ApiError, shown on the form. */
export function updatePassword(oldPass: string, newPass: string) {
  return requestInline<{ psPower: number; revokedSessions: number }>({
    url: 'api/users/updatePass',
    method: 'post',
    data: { oldPass, newPass },
  });
}

export function updateAvatar(file: File): Promise<{ avatar: string }> {
  const data = new FormData();
  data.append('avatar', file);
  return request<{ avatar: string }>({
    url: 'api/users/updateAvatar',
    method: 'post',
    data,
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<{ revoked: number }>({ url: 'api/auth/sessions/revokeOthers', method: 'post' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}

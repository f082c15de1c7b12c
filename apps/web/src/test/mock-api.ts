import type { AuthUser } from '@piibs/shared/auth';
import { act } from '@testing-library/react';
import { http, type SentRequest, type Transport } from '@/lib/http.ts';

/** An answer: a body (status 200) or an explicit status and body; optionally response headers. */
export type MockAnswer = ({ status: number; data?: unknown } | { data: unknown; status?: undefined }) & {
  headers?: Record<string, string>;
};
export type MockHandler = (config: SentRequest) => MockAnswer | Promise<MockAnswer>;

export type MockApi = {
  /** Every request made, in order. */
  calls: SentRequest[];
  /** Requests to one `METHOD url` key. */
  callsTo(key: string): SentRequest[];
  restore(): void;
};

const keyOf = (config: SentRequest) =>
  `${(config.method ?? 'get').toUpperCase()} ${(config.url ?? '').replace(/^\//, '').split('?')[0]}`;

/**
 * Answers the shared client's calls from a table keyed by `METHOD url` ('POST api/auth/login'); anything
 * else is a 404. The client judges the status as it does a real answer, so the error policy runs as live.
 */
export function mockApi(table: Record<string, MockHandler | MockAnswer>): MockApi {
  const original = http.transport;
  const calls: SentRequest[] = [];
  const adapter: Transport = async (config) => {
    calls.push(config);
    const entry = table[keyOf(config)];
    const answer: MockAnswer = entry
      ? typeof entry === 'function'
        ? await entry(config)
        : entry
      : { status: 404, data: { status: 404, message: `未模拟的接口 ${keyOf(config)}` } };
    return { data: answer.data, status: answer.status ?? 200, headers: answer.headers ?? {} };
  };
  http.transport = adapter;
  return {
    calls,
    callsTo: (key) => calls.filter((config) => keyOf(config) === key),
    restore: () => {
      http.transport = original;
    },
  };
}

/** A user as /api/auth/info answers it. */
export function fakeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 1,
    username: 'admin',
    nickName: '系统管理员',
    email: null,
    phone: null,
    gender: null,
    avatar: null,
    channel: 'staff',
    uscc: null,
    dept: null,
    roles: ['admin'],
    roleNames: ['系统管理员'],
    permissions: [],
    ...overrides,
  };
}

/** One page holding every row (GET lists). */
export function pageAnswer<T>(rows: T[]): MockAnswer {
  return { data: { content: rows, totalElements: rows.length } };
}

/** GET api/dictDetail answered from a table of dictionaries: name → [value, label] entries, in order. */
export function dictAnswers(dicts: Record<string, [string, string][]>): MockHandler {
  return (config) => {
    const name = (config.params as { dictName?: string }).dictName ?? '';
    return pageAnswer(
      (dicts[name] ?? []).map(([value, label], i) => ({
        id: i + 1,
        dictId: 1,
        dictName: name,
        value,
        label,
        sort: i,
      })),
    );
  };
}

/**
 * Lets what a render set going run to its end (effects, the calls they make and their answers), on no clock:
 * for checks that something did not happen.
 */
export async function settle(): Promise<void> {
  await act(async () => {
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  });
}

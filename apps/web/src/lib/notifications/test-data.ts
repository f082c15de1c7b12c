import type { AppNotification } from './api.ts';

/** A message as the server sends it; ids order them. */
export function fakeNotification(id: number, overrides: Partial<AppNotification> = {}): AppNotification {
  return {
    id,
    kind: 'application.approved',
    title: `投保单 TB${id} 已核保通过`,
    body: `您提交的投保单 TB${id} 已通过核保，请尽快缴费。`,
    link: `/piibs/insured/viewInsurance/${id}/1`,
    createTime: new Date(Date.UTC(2025, 0, 1, 8, id)).toISOString(),
    read: false,
    ...overrides,
  };
}

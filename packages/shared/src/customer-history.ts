// A customer's history (客户历史): their earlier policies and submitted applications, newest first, as the
// review pages show them beside what is reviewed. Import it as `@piibs/shared/customer-history`.
import { z } from 'zod';
import { pageOf } from './admin.ts';
import { applicationRow } from './application.ts';
import { policyRow } from './policy.ts';

/** Each list holds at most this many rows, the newest; `totalElements` counts them all. */
export const CUSTOMER_HISTORY_LIMIT = 20;

/** GET /api/customers/:id/history?exclude=: the application under review is left out (and its policy). */
export const customerHistoryQuery = z.object({
  exclude: z.coerce
    .number({ error: '请提供正确的投保单ID' })
    .int({ error: '请提供正确的投保单ID' })
    .positive({ error: '请提供正确的投保单ID' })
    .optional()
    .meta({ title: '排除的投保单', description: '正在审核的投保单ID：不列出它及其保单' }),
});

export const historyPolicy = policyRow.pick({
  id: true,
  number: true,
  productName: true,
  startDate: true,
  endDate: true,
  premiumFen: true,
  status: true,
  statusLabel: true,
});
export type HistoryPolicy = z.infer<typeof historyPolicy>;

export const historyApplication = applicationRow
  .pick({
    id: true,
    number: true,
    productName: true,
    policyholderType: true,
    status: true,
    statusLabel: true,
  })
  .extend({ submittedAt: z.string() });
export type HistoryApplication = z.infer<typeof historyApplication>;

export const customerHistory = z.object({
  /** Their policies, latest issued first. */
  policies: pageOf(historyPolicy),
  /** Their applications that were ever submitted, latest submitted first; statusLabel is the outcome. */
  applications: pageOf(historyApplication),
});
export type CustomerHistory = z.infer<typeof customerHistory>;

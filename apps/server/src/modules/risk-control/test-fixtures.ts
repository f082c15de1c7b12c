// Test fixtures of the risk-control tests (not a test file): the permission codes granted as the menu seed is
// meant to grant them, issued policies for two enterprises, two service organisations with their accounts.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { eq, inArray } from 'drizzle-orm';
import { client } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { newUscc } from '../../../test/business.ts';
import type { TestContext } from '../../../test/helpers.ts';
import { menus, policies, roleMenus, roles } from '../../db/schema.ts';
import { moveIntoPast } from '../../demo/clock.ts';
import { bumpMenuVersion } from '../menus/service.ts';
import {
  cashier,
  createPayWorld,
  type PayWorld,
  pendingPayment,
  startPay,
} from '../payments/test-fixtures.ts';

/** The permission codes of risk control and the built-in roles they are meant for (admin has them all). */
export const RISK_PERMISSIONS: Readonly<Record<string, string[]>> = Object.freeze({
  'service_org:list': ['underwriter', 'service'],
  'service_org:add': ['underwriter'],
  'service_org:edit': ['underwriter', 'service'],
  'service_org:del': ['underwriter'],
  'service_person:list': ['underwriter', 'service'],
  'service_person:add': ['underwriter', 'service'],
  'service_person:edit': ['underwriter', 'service'],
  'service_person:del': ['underwriter', 'service'],
  'prevention:list': ['underwriter', 'service', '17'],
  'prevention:plan': ['underwriter'],
  'prevention:serve': ['service'],
  'prevention:confirm': ['17'],
  'prevention:export': ['underwriter', 'service', '17'],
});

/** Adds a button per code (unless the menu seed has it already) and grants it to its roles. */
export async function grantRiskPermissions(t: TestContext): Promise<void> {
  const db = t.database.db;
  for (const [code, roleCodes] of Object.entries(RISK_PERMISSIONS)) {
    let [button] = await db.select({ id: menus.id }).from(menus).where(eq(menus.permission, code));
    if (!button)
      [button] = await db
        .insert(menus)
        .values({ type: 2, title: code, permission: code })
        .returning({ id: menus.id });
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.code, roleCodes));
    await db
      .insert(roleMenus)
      .values(found.map((r) => ({ roleId: r.id, menuId: button!.id })))
      .onConflictDoNothing();
    await bumpMenuVersion(db);
  }
}

/** How long ago the world's policies started: services are recorded today, within their period. */
export const POLICY_AGE_DAYS = 10;

/**
 * An issued policy of `who` for its customer, through the real API and the sandbox cashier, in force since
 * POLICY_AGE_DAYS ago. No one may back-date an application, so the world's clock is turned instead, as the
 * demo's is (demo/clock.ts): the application's business moves back as if it had happened that many days earlier.
 */
export async function issuedPolicy(w: PayWorld, who: PayWorld['ent'], customerId: number) {
  const a = await pendingPayment(w, who, customerId);
  const start = await startPay(who, a.id);
  const res = await cashier(w, start.cashierUrl, 'pay');
  if (res.statusCode !== 303) throw new Error(res.body);
  const db = w.t.database.db;
  const issued = async () =>
    (await db.select().from(policies).where(eq(policies.applicationId, a.id)))[0] ??
    Promise.reject(new Error('policy not issued'));
  const since = addDays(shanghaiToday(), -POLICY_AGE_DAYS);
  await moveIntoPast(db, a.id, (Date.parse((await issued()).startDate) - Date.parse(since)) / 86_400_000);
  return issued();
}

export type Client = PayWorld['ent'];

export interface RiskWorld extends PayWorld {
  /** Accounts of organisation 1 (svc) and 2 (svc2); `svcLoose` has the service role but no organisation. */
  svc: Client;
  svc2: Client;
  svcLoose: Client;
  svcIds: { svc: number; svc2: number; svcLoose: number };
  /** The enterprise's and the second enterprise's issued policies. */
  policy: typeof policies.$inferSelect;
  policy2: typeof policies.$inferSelect;
  seqNo: string;
  seqNo2: string;
  org1: { id: number; version: number };
  org2: { id: number; version: number };
  /** Two experts of org 1, one of org 2. */
  persons: { a: number; b: number; c: number };
}

/** A valid organisation form (serving Zhenjiang, manufacturing and wholesale/retail). */
export function orgForm(over: Record<string, unknown> = {}) {
  return {
    code: newUscc(),
    name: '镇江安泰安全技术服务有限公司',
    address: '江苏省镇江市京口区解放路 1 号',
    qualifications: [
      {
        name: '安全评价机构资质',
        certNo: 'APJ-(苏)-001',
        level: '乙级',
        validFrom: '2024-01-01',
        validTo: '2099-12-31',
      },
    ],
    regions: ['321100'],
    industries: ['C', 'F'],
    contacts: [{ name: '周工', phone: '13912345678', position: '技术负责人' }],
    enabled: true,
    ...over,
  };
}

export function personForm(orgId: number, over: Record<string, unknown> = {}) {
  return {
    orgId,
    name: '王安全',
    specialty: '机械安全',
    title: '高级工程师',
    expert: true,
    certificateName: '注册安全工程师',
    certificateNo: 'ZA2024000001',
    certificateValidFrom: '2024-01-01',
    certificateValidTo: '2099-12-31',
    phone: '13800001111',
    enabled: true,
    ...over,
  };
}

async function ok<T = Record<string, unknown>>(
  p: Promise<{ statusCode: number; body: string; json(): unknown }>,
) {
  const res = await p;
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/** Policies, permissions, two organisations with accounts and persons. */
export async function createRiskWorld(): Promise<RiskWorld> {
  const w = await createPayWorld();
  await grantRiskPermissions(w.t);
  const svcIds = {
    svc: await createUser(w.t, { username: 'svc', roles: ['service'], channel: 'service' }),
    svc2: await createUser(w.t, { username: 'svc2', roles: ['service'], channel: 'service' }),
    svcLoose: await createUser(w.t, { username: 'svc3', roles: ['service'], channel: 'service' }),
  };
  const [policy, policy2] = [
    await issuedPolicy(w, w.ent, w.entCustomerId),
    await issuedPolicy(w, w.ent2, w.ent2CustomerId),
  ];
  const org1 = await ok<{ id: number; version: number }>(w.underwriter.post('/api/service-orgs', orgForm()));
  const org2 = await ok<{ id: number; version: number }>(
    w.underwriter.post('/api/service-orgs', orgForm({ name: '江苏华安应急技术咨询有限公司' })),
  );
  await ok(w.underwriter.post(`/api/service-orgs/${org1.id}/members`, { userIds: [svcIds.svc] }));
  await ok(w.underwriter.post(`/api/service-orgs/${org2.id}/members`, { userIds: [svcIds.svc2] }));
  const svc = client(w.t, await tokenFor(w.t, 'svc'));
  const svc2 = client(w.t, await tokenFor(w.t, 'svc2'));
  const svcLoose = client(w.t, await tokenFor(w.t, 'svc3'));
  const a = await ok<{ id: number }>(w.underwriter.post('/api/service-persons', personForm(org1.id)));
  const b = await ok<{ id: number }>(
    svc.post(
      '/api/service-persons',
      personForm(org1.id, { name: '李培训', specialty: '安全培训', phone: '13800002222' }),
    ),
  );
  const c = await ok<{ id: number }>(
    svc2.post(
      '/api/service-persons',
      personForm(org2.id, { name: '赵应急', specialty: '应急管理', phone: '13800003333' }),
    ),
  );
  return {
    ...w,
    svc,
    svc2,
    svcLoose,
    svcIds,
    policy,
    policy2,
    seqNo: `YF${policy.number}`,
    seqNo2: `YF${policy2.number}`,
    org1,
    org2,
    persons: { a: a.id, b: b.id, c: c.id },
  };
}

/** `days` after today: inside the period of a world policy (in force since POLICY_AGE_DAYS ago), for schedules. */
export function dayInPeriod(p: { startDate: string; endDate: string }, days = 0): string {
  const day = addDays(shanghaiToday(), days);
  if (day < p.startDate || day > p.endDate) throw new Error(`${day} is outside ${p.startDate}–${p.endDate}`);
  return day;
}

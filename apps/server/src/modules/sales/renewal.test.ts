import { addDays, defaultEnd, shanghaiToday } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { RENEWAL_WINDOW_MESSAGE } from '@piibs/shared/sales';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applicationCoinsurers,
  applicationEvents,
  applications,
  auditLog,
  policies,
  products,
} from '../../db/schema.ts';
import { approvedCustomer, createPayWorld, type PayWorld } from '../payments/test-fixtures.ts';
import { issuedPolicy } from './test-fixtures.ts';

let w: PayWorld;
/** The enterprise's co-insured policy, and one an agent made for its client. */
let entPolicy: number;
let agentPolicy: number;
let productId: number;

beforeAll(async () => {
  w = await createPayWorld();
  entPolicy = await issuedPolicy(w, w.ent, w.entCustomerId, true);
  agentPolicy = await issuedPolicy(w, w.agent, await approvedCustomer(w, w.agent));
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  productId = p!.id;
});
afterAll(() => w.t.close());

/** Moves a policy's period so that it ends on `endDate`. */
async function endsOn(policyId: number, endDate: string) {
  await w.t.database.db
    .update(policies)
    .set({ startDate: addDays(endDate, -364), endDate })
    .where(eq(policies.id, policyId));
}

const today = () => shanghaiToday();

describe('the renewal window', () => {
  it('opens 90 days before the end (409 before), and GET /renewal says so', async () => {
    // As issued, the policy starts tomorrow and ends a year later.
    const early = await w.ent.post(`/api/policies/${entPolicy}/renew`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(RENEWAL_WINDOW_MESSAGE);
    expect(RENEWAL_WINDOW_MESSAGE).toBe('保单到期前 90 天内才能续保');

    await endsOn(entPolicy, addDays(today(), 91));
    expect((await w.ent.post(`/api/policies/${entPolicy}/renew`)).statusCode).toBe(409);
    const info = (await w.ent.get(`/api/policies/${entPolicy}/renewal`)).json();
    expect(info).toMatchObject({
      state: 'early',
      canRenew: false,
      opensOn: addDays(today(), 1),
      renewal: null,
    });
  });

  it('refuses a lapsed policy (the renewal would be back-dated): insure anew', async () => {
    await endsOn(agentPolicy, addDays(today(), -1));
    const res = await w.agent.post(`/api/policies/${agentPolicy}/renew`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      new RegExp(`^${RENEWAL_WINDOW_MESSAGE}：该保单已于 .* 到期，请重新投保$`),
    );
  });

  it('is for the policyholder side: 404 to those who may not see it, 403 to staff', async () => {
    await endsOn(entPolicy, addDays(today(), 30));
    expect((await w.ent2.post(`/api/policies/${entPolicy}/renew`)).statusCode).toBe(404);
    expect((await w.agent.post(`/api/policies/${entPolicy}/renew`)).statusCode).toBe(404);
    expect((await w.ent2.get(`/api/policies/${entPolicy}/renewal`)).statusCode).toBe(404);
    // Underwriters see the policy but do not make applications.
    expect((await w.underwriter.post(`/api/policies/${entPolicy}/renew`)).statusCode).toBe(403);
    expect((await w.underwriter.get(`/api/policies/${entPolicy}/renewal`)).json()).toMatchObject({
      state: 'open',
      canRenew: false,
    });
    expect((await w.ent.get(`/api/policies/${entPolicy}/renewal`)).json()).toMatchObject({
      state: 'open',
      canRenew: true,
    });
  });
});

describe('renewing', () => {
  let renewalId: number;

  it('makes a linked DRAFT from the old application, re-rated on the CURRENT active rate table', async () => {
    const end = addDays(today(), 30);
    await endsOn(entPolicy, end);
    const [old] = await w.t.database.db
      .select()
      .from(applications)
      .innerJoin(policies, eq(policies.applicationId, applications.id))
      .where(eq(policies.id, entPolicy));
    const oldApp = old!.application;

    // A new rate-table version, 10% dearer, becomes the active one.
    const v1 = (await w.admin.get(`/api/rateTables/${oldApp.rateTableId}`)).json();
    const draft = await w.admin.post(`/api/products/${productId}/rateTables`, {
      effectiveDate: today(),
      highRiskLoading: v1.highRiskLoading,
      factors: v1.factors,
      rows: v1.rows.map(
        (r: {
          coverageType: string | null;
          industry: string | null;
          limitTierFen: number | null;
          rate: number;
        }) => ({
          coverageType: r.coverageType,
          industry: r.industry,
          limitTierFen: r.limitTierFen,
          rate: Math.round((r.rate * 11) / 10),
        }),
      ),
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const activated = await w.admin.post(`/api/rateTables/${draft.json().id}/activate`, {
      version: draft.json().version,
    });
    expect(activated.statusCode, activated.body).toBe(200);

    const res = await w.ent.post(`/api/policies/${entPolicy}/renew`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    const start = addDays(end, 1);
    expect(r).toMatchObject({
      status: 'DRAFT',
      channel: 'enterprise',
      policyholderType: 1,
      productId,
      startDate: start,
      endDate: defaultEnd(start),
      rateTableId: draft.json().id,
      renewalOfPolicyId: entPolicy,
      quoteProblem: null,
    });
    renewalId = r.applicationId;
    expect(r.premiumFen).toBeGreaterThan(oldApp.premiumFen!);

    const detail = (await w.ent.get(`/api/applications/${renewalId}`)).json();
    expect(detail).toMatchObject({
      status: 'DRAFT',
      customerId: oldApp.customerId,
      insuredName: oldApp.insuredName,
      insuredUscc: oldApp.insuredUscc,
      contactName: oldApp.contactName,
      headcount: oldApp.headcount,
      perPersonLimitFen: oldApp.perPersonLimitFen,
      industryDivision: oldApp.industryDivision,
      quote: { rateTableId: draft.json().id, rateTableVersion: 2 },
    });
    expect(detail.number).not.toBe(oldApp.number);
    // The same inputs priced now give the same premium.
    const quote = await w.ent.post(`/api/products/${productId}/quote`, {
      customerId: oldApp.customerId,
      headcount: oldApp.headcount,
      perPersonLimitFen: oldApp.perPersonLimitFen,
      coverages: oldApp.coverages,
      factors: oldApp.factors,
      preventionRatio: oldApp.preventionRatio,
    });
    expect(quote.json().premiumFen).toBe(r.premiumFen);

    const [row] = await w.t.database.db.select().from(applications).where(eq(applications.id, renewalId));
    expect(row).toMatchObject({ renewalOfPolicyId: entPolicy, ownerId: w.ids.ent });
    const shares = await w.t.database.db
      .select()
      .from(applicationCoinsurers)
      .where(eq(applicationCoinsurers.applicationId, renewalId));
    expect(shares.map((s) => [s.insurerCode, s.lead, s.share]).sort()).toEqual([
      ['CPIC', false, 30_000_000],
      [ISSUER_CODE, true, 70_000_000],
    ]);
    expect(shares.reduce((sum, s) => sum + s.premiumFen, 0)).toBe(r.premiumFen);
    const events = await w.t.database.db
      .select()
      .from(applicationEvents)
      .where(eq(applicationEvents.applicationId, renewalId));
    expect(events).toEqual([expect.objectContaining({ action: 'create', toStatus: 'DRAFT' })]);
    expect(events[0]!.opinion).toMatch(/^续保：原保单 P/);
    const [audit] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'renew'), eq(auditLog.entityId, String(renewalId))));
    expect(audit).toMatchObject({ entity: 'application', actorId: w.ids.ent });
    expect(audit!.detail).toMatchObject({ renewalOfPolicyId: entPolicy, after: { rateTableVersion: 2 } });

    expect((await w.ent.get(`/api/policies/${entPolicy}/renewal`)).json()).toMatchObject({
      canRenew: false,
      renewal: { applicationId: renewalId, status: 'DRAFT' },
    });
  });

  it('answers a second renewal with 409 naming the existing draft', async () => {
    const res = await w.ent.post(`/api/policies/${entPolicy}/renew`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain(`ID：${renewalId}`);
    const [n] = await w.t.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.renewalOfPolicyId, entPolicy));
    expect(n).toBeDefined();
  });

  it('allows renewing again once the renewal draft is cancelled', async () => {
    const a = (await w.ent.get(`/api/applications/${renewalId}`)).json();
    expect(
      (await w.ent.post(`/api/applications/${renewalId}/cancel`, { version: a.version })).statusCode,
    ).toBe(200);
    const res = await w.ent.post(`/api/policies/${entPolicy}/renew`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().applicationId).not.toBe(renewalId);
  });

  it('leaves out a co-insurance table no longer valid (saved before the issuer had to be a party)', async () => {
    const db = w.t.database.db;
    const [live] = await db
      .select({ id: applications.id, version: applications.version })
      .from(applications)
      .where(and(eq(applications.renewalOfPolicyId, entPolicy), eq(applications.status, 'DRAFT')));
    expect(
      (await w.ent.post(`/api/applications/${live!.id}/cancel`, { version: live!.version })).statusCode,
    ).toBe(200);
    const [old] = await db.select().from(policies).where(eq(policies.id, entPolicy));
    // the old table as it was before: PICC leading, the issuer not in it
    await db
      .update(applicationCoinsurers)
      .set({ insurerCode: 'PICC' })
      .where(
        and(
          eq(applicationCoinsurers.applicationId, old!.applicationId),
          eq(applicationCoinsurers.insurerCode, ISSUER_CODE),
        ),
      );
    const res = await w.ent.post(`/api/policies/${entPolicy}/renew`);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().applicationId as number;
    expect((await w.ent.get(`/api/applications/${id}`)).json().coinsurers).toEqual([]);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'renew'), eq(auditLog.entityId, String(id))));
    expect(audit!.detail).toMatchObject({
      coinsurers: 0,
      coinsuranceDropped: '共保信息：本公司须为共保人之一',
    });
  });

  it("lets an agent renew its client's policy in the agent channel", async () => {
    await endsOn(agentPolicy, today());
    const res = await w.agent.post(`/api/policies/${agentPolicy}/renew`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'agent', startDate: addDays(today(), 1) });
    const [row] = await w.t.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, res.json().applicationId));
    expect(row).toMatchObject({ agentId: w.ids.agent, ownerId: w.ids.agent, renewalOfPolicyId: agentPolicy });
  });
});

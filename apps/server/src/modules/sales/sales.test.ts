import {
  SAME_SALESPERSON,
  SUPPLEMENT_EXISTS,
  SUPPLEMENT_NOT_FOUND,
  type SupplementForm,
} from '@piibs/shared/sales';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../../test/auth.ts';
import type { Client } from '../../../test/business.ts';
import { auditLog, products, salespersonChanges } from '../../db/schema.ts';
import { demoUser } from '../../demo/user.ts';
import { CountCache } from '../../lib/keyset.ts';
import { paginate } from '../../lib/paging.ts';
import { customerViewerOf } from '../customers/access.ts';
import { approvedCustomer, createPayWorld, type PayWorld } from '../payments/test-fixtures.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { type SalesFilter, salesListSpec } from './service.ts';
import { issuedPolicy } from './test-fixtures.ts';

let w: PayWorld;
/** The enterprise's own policy and one an agent made for its client. */
let entPolicy: number;
let agentPolicy: number;
/** The test clients have no PUT: these sign in once more for it. */
let put: Record<
  'agent' | 'agent2' | 'underwriter',
  (url: string, payload: unknown) => ReturnType<Client['get']>
>;

beforeAll(async () => {
  w = await createPayWorld();
  const agentCustomer = await approvedCustomer(w, w.agent);
  const putAs = async (username: string) => {
    const token = await tokenFor(w.t, username);
    return (url: string, payload: unknown) =>
      w.t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });
  };
  put = { agent: await putAs('ag'), agent2: await putAs('ag2'), underwriter: await putAs('uw') };
  entPolicy = await issuedPolicy(w, w.ent, w.entCustomerId);
  agentPolicy = await issuedPolicy(w, w.agent, agentCustomer);
  // A product cap below the 5% ceiling, so the cap and not the ceiling refuses.
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  await w.t.database.db.update(products).set({ commissionCap: 3_000_000 }).where(eq(products.id, p!.id));
});
afterAll(() => w.t.close());

const form = (over: Partial<SupplementForm> = {}): SupplementForm => ({
  version: null,
  variant: 'STANDARD',
  salespersonName: '王销售',
  salespersonNo: 'S0001',
  agentName: '镇江平安保险代理有限公司',
  agentLicenceNo: 'DL-2026-001',
  commissionRate: 2_500_000,
  businessSource: 'PROFESSIONAL_AGENCY',
  ...over,
});

type Row = {
  policyId: number;
  supplementStatus: string;
  supplementStatusLabel: string;
  wageAccountNo: string | null;
};
const rowsOf = async (who: Client, query = '') =>
  ((await who.get(`/api/sales?size=100${query}`)).json() as { content: Row[] }).content;

const auditRows = (action: string, policyId: number) =>
  w.t.database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'sales_supplement'),
        eq(auditLog.action, action),
        eq(auditLog.entityId, String(policyId)),
      ),
    );

describe('the supplement list', () => {
  it('lists the policies the caller may see with 未补录 until supplemented', async () => {
    const agentRows = await rowsOf(w.agent);
    expect(agentRows.map((r) => r.policyId)).toEqual([agentPolicy]);
    expect(agentRows[0]).toMatchObject({ supplementStatus: 'NONE', supplementStatusLabel: '未补录' });
    expect(await rowsOf(w.agent2)).toEqual([]);
    const staff = (await rowsOf(w.underwriter)).map((r) => r.policyId);
    expect(staff).toEqual(expect.arrayContaining([entPolicy, agentPolicy]));
  });

  it('is for holders of sales:list (the enterprise has none: 403)', async () => {
    expect((await w.ent.get('/api/sales')).statusCode).toBe(403);
    expect((await w.ent.get(`/api/policies/${entPolicy}/sales`)).statusCode).toBe(403);
  });

  it('refuses a bad filter naming it', async () => {
    const res = await w.agent.get('/api/sales?status=MAYBE');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^补录状态：/);
  });
});

describe('saving a supplement', () => {
  it('answers 404 for a policy the caller may not see', async () => {
    expect((await w.agent.get(`/api/policies/${entPolicy}/sales`)).statusCode).toBe(404);
    expect((await w.agent2.get(`/api/policies/${agentPolicy}/sales`)).statusCode).toBe(404);
    expect((await put.agent2(`/api/policies/${agentPolicy}/sales`, form())).statusCode).toBe(404);
    expect((await w.agent.get('/api/policies/999999/sales')).statusCode).toBe(404);
  });

  it('names the field of every refusal, in Chinese', async () => {
    const cases: [Partial<SupplementForm>, string][] = [
      [{ commissionRate: 4_000_000 }, '手续费比例：不能超过该险种的上限 3%'],
      [{ commissionRate: 6_000_000 }, '手续费比例：不能超过 5%'],
      [{ commissionRate: 2.5 }, '手续费比例：须为整数（百分比 × 10⁶）'],
      [{ salespersonName: '  ' }, '销售人员姓名：不能为空'],
      [{ salespersonNo: '工号 1' }, '销售人员工号：只能包含字母、数字和 - _ /'],
      [{ agentLicenceNo: null }, '代理人执业证号：不能为空'],
      [{ businessSource: 'NOPE' }, '业务来源：字典中没有代码 NOPE'],
      [{ variant: 'NBNMG' }, '项目名称：不能为空'],
      [
        {
          variant: 'NBNMG',
          nbProjectName: '京口区安置房项目',
          migrantWorkerCount: 120,
          wageBank: '中国工商银行镇江分行',
          labourContractFilingNo: 'BA2026-0001',
          supervisingAuthority: '镇江市人力资源和社会保障局',
        },
        '工资专户账号：不能为空',
      ],
      [{ variant: 'NBNMG', wageAccountNo: '12ab' }, '工资专户账号：请输入 8–32 位数字的银行账号'],
      [{ agentUserId: w.ids.ent }, '代理人：用户不存在或不是代理人'],
    ];
    for (const [over, message] of cases) {
      const res = await put.agent(`/api/policies/${agentPolicy}/sales`, form(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message, JSON.stringify(over)).toBe(message);
    }
    expect((await w.agent.get(`/api/policies/${agentPolicy}/sales`)).json().supplement).toBeNull();
  });

  it('creates once (version null), then updates on the loaded version; 409 when stale; audited', async () => {
    const before = (await w.agent.get(`/api/policies/${agentPolicy}/sales`)).json();
    expect(before).toMatchObject({
      supplement: null,
      changes: [],
      policy: { id: agentPolicy, commissionCap: 3_000_000, commissionCapText: '3' },
      defaults: { agentUserId: w.ids.agent },
    });

    const created = await put.agent(`/api/policies/${agentPolicy}/sales`, form());
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().supplement).toMatchObject({
      version: 0,
      variant: 'STANDARD',
      salespersonName: '王销售',
      commissionRate: 2_500_000,
      commissionRateText: '2.5',
      businessSourceLabel: '专业代理业务',
      wageAccountNo: null,
    });
    expect(await auditRows('create', agentPolicy)).toHaveLength(1);

    const again = await put.agent(`/api/policies/${agentPolicy}/sales`, form());
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SUPPLEMENT_EXISTS);
    const stale = await put.agent(`/api/policies/${agentPolicy}/sales`, form({ version: 7 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_VERSION);

    // The NBNMG variant on the current version: its own fields, the account masked in the list.
    const nb = await put.underwriter(
      `/api/policies/${agentPolicy}/sales`,
      form({
        version: 0,
        variant: 'NBNMG',
        nbProjectName: '京口区安置房项目',
        migrantWorkerCount: 120,
        wageBank: '中国工商银行镇江分行',
        wageAccountNo: '6222 0211 0000 1234 567',
        labourContractFilingNo: 'BA2026-0001',
        supervisingAuthority: '镇江市人力资源和社会保障局',
      }),
    );
    expect(nb.statusCode, nb.body).toBe(200);
    expect(nb.json().supplement).toMatchObject({
      version: 1,
      variant: 'NBNMG',
      migrantWorkerCount: 120,
      wageAccountNo: '6222021100001234567',
      updatedBy: 'uw',
    });
    const [row] = await rowsOf(w.agent);
    expect(row).toMatchObject({
      supplementStatus: 'DONE',
      supplementStatusLabel: '已补录',
      wageAccountNo: '6222***********4567',
    });
    expect(await rowsOf(w.agent, '&status=NONE')).toEqual([]);
    expect((await rowsOf(w.underwriter, '&status=DONE')).map((r) => r.policyId)).toEqual([agentPolicy]);
    expect((await rowsOf(w.underwriter, '&blurry=S0001')).map((r) => r.policyId)).toEqual([agentPolicy]);

    const [update] = await auditRows('update', agentPolicy);
    const detail = update!.detail as { before: Record<string, unknown>; after: Record<string, unknown> };
    expect(detail.before).toMatchObject({ variant: 'STANDARD', wageAccountNo: null });
    expect(detail.after).toMatchObject({ variant: 'NBNMG', wageAccountNo: '6222***********4567' });
    expect(detail.after).not.toHaveProperty('salespersonName');
  });
});

describe('updateSale: changing the salesperson', () => {
  it('is refused without a supplement (409), a reason (400) or on a stale version (409)', async () => {
    const none = await w.ent.post(`/api/policies/${entPolicy}/sales/salesperson`, {
      version: 0,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: '岗位调整',
    });
    expect(none.statusCode).toBe(403);
    const missing = await w.underwriter.post(`/api/policies/${entPolicy}/sales/salesperson`, {
      version: 0,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: '岗位调整',
    });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().message).toBe(SUPPLEMENT_NOT_FOUND);

    const current = (await w.agent.get(`/api/policies/${agentPolicy}/sales`)).json().supplement;
    const noReason = await w.agent.post(`/api/policies/${agentPolicy}/sales/salesperson`, {
      version: current.version,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('变更原因：不能为空');
    const same = await w.agent.post(`/api/policies/${agentPolicy}/sales/salesperson`, {
      version: current.version,
      salespersonName: '王销售',
      salespersonNo: 'S0001',
      reason: '误操作',
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(SAME_SALESPERSON);
    const stale = await w.agent.post(`/api/policies/${agentPolicy}/sales/salesperson`, {
      version: current.version + 5,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: '岗位调整',
    });
    expect(stale.statusCode).toBe(409);
    expect(
      (
        await w.agent2.post(`/api/policies/${agentPolicy}/sales/salesperson`, {
          version: current.version,
          salespersonName: '李销售',
          salespersonNo: 'S0002',
          reason: '岗位调整',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('changes it, keeps the history (old → new, who, when, why) and audits it', async () => {
    const current = (await w.agent.get(`/api/policies/${agentPolicy}/sales`)).json().supplement;
    const res = await w.agent.post(`/api/policies/${agentPolicy}/sales/salesperson`, {
      version: current.version,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: '原销售人员离职，业务移交',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.supplement).toMatchObject({
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      version: current.version + 1,
      // The rest stays as it was.
      variant: 'NBNMG',
      commissionRate: 2_500_000,
    });
    expect(body.changes).toEqual([
      expect.objectContaining({
        oldName: '王销售',
        oldNo: 'S0001',
        newName: '李销售',
        newNo: 'S0002',
        reason: '原销售人员离职，业务移交',
        actor: 'ag',
      }),
    ]);
    expect(Date.parse(body.changes[0].at)).toBeGreaterThan(Date.now() - 60_000);
    const stored = await w.t.database.db
      .select()
      .from(salespersonChanges)
      .where(eq(salespersonChanges.policyId, agentPolicy));
    expect(stored).toHaveLength(1);
    const [audit] = await auditRows('change_salesperson', agentPolicy);
    expect(audit!.detail).toMatchObject({
      before: { salespersonName: '王销售', salespersonNo: 'S0001' },
      after: { salespersonName: '李销售', salespersonNo: 'S0002' },
      reason: '原销售人员离职，业务移交',
    });
    expect(audit!.actorId).toBe(w.ids.agent);
  });
});

describe('the supplement list’s count', () => {
  it('is cached per filter and data scope; a new policy or a supplement saved makes it stale at once', async () => {
    const db = w.t.database.db;
    const viewer = await customerViewerOf(db, (await demoUser(db, 'admin'))!);
    const counts = new CountCache();
    const total = async (f: SalesFilter) =>
      (await paginate({ page: 0, size: 1 }, salesListSpec(db, viewer, f, counts))).totalElements;
    const all = await total({});
    const open = await total({ status: 'NONE' });
    expect(await total({ status: 'NONE' })).toBe(open);
    expect([counts.misses, counts.hits]).toEqual([2, 1]);

    const policyId = await issuedPolicy(w, w.ent, w.entCustomerId);
    expect(await total({})).toBe(all + 1);
    expect(await total({ status: 'NONE' })).toBe(open + 1);
    // A supplement saved (a statement on sales_supplement only) takes the policy out of 未补录 at once.
    expect((await put.underwriter(`/api/policies/${policyId}/sales`, form())).statusCode).toBe(200);
    expect(await total({ status: 'NONE' })).toBe(open);
    expect(counts.misses).toBe(5);
  });
});

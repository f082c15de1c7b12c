// The demo risk control (PIIBS_DEMO=1): the demo organisation (linked to the 'service' account) with two
// experts, a plan for the demo enterprise's policy, and orders in several states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { DEMO_PASSWORD } from '../../demo/base.ts';
import { seedDemoRiskControl } from '../../demo/risk-control.ts';
import { onStart } from '../../startup.ts';
import { grantRiskPermissions } from './test-fixtures.ts';

let t: TestContext;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  await onStart({ config: t.config, database: t.database, log: (l) => lines.push(l) });
  await grantRiskPermissions(t);
});
afterAll(() => t.close());

async function as(username: string) {
  const token = (await login(t, username, DEMO_PASSWORD)).json().token as string;
  return (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) }).then((r) => r.json());
}

describe('demo risk control (PIIBS_DEMO=1)', () => {
  it('seeds an organisation with two experts, a plan and orders in several states', async () => {
    expect(lines).toContain('demo risk control seeded (organisation, experts, plan, orders)');
    const svc = await as('service');
    const orgs = await svc('/api/service-orgs');
    expect(orgs.content.map((o: { name: string }) => o.name)).toEqual(['镇江安泰安全技术服务有限公司']);
    expect((await svc('/api/service-persons')).totalElements).toBe(2);
    const orders = (await svc('/api/prevention/orders?size=50')).content as { status: string }[];
    expect(orders.map((o) => o.status).sort()).toEqual(
      ['CLOSED', 'CONFIRMED', 'DISPATCHED', 'IN_SERVICE', 'REJECTED', 'SUBMITTED'].sort(),
    );

    const ent = await as('enterprise');
    // One prevention record per demo policy of the enterprise (three: demo/policies.ts, the named-list one
    // included); the services are planned on the co-insured one.
    const plans = (await ent('/api/prevention/plans')).content as { seqNo: string }[];
    expect(plans).toHaveLength(3);
    const newest = plans
      .map((p) => p.seqNo)
      .sort()
      .at(-1);
    const plan = await ent(`/api/prevention/plans/${newest}`);
    expect(plan.items).toHaveLength(4);
    const { fund } = plan;
    expect(fund.spentFen).toBeGreaterThan(0);
    expect(fund.plannedFen + fund.spentFen + fund.leftFen).toBe(fund.totalFen);
    const submitted = (await ent('/api/prevention/orders?status=SUBMITTED')).content;
    expect(submitted[0].actions).toEqual(['return', 'confirm']);
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoRiskControl(t.database.db)).toBe(0);
  });
});

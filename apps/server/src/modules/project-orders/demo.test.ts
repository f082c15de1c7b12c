// The demo project insurance (PIIBS_DEMO=1): the contractor account, its annual order and secondary orders in
// every state, one of them approved with its policy issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { DEMO_PASSWORD } from '../../demo/base.ts';
import { seedDemoProjects } from '../../demo/projects.ts';
import { onStart } from '../../startup.ts';

let t: TestContext;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  await onStart({ config: t.config, database: t.database, log: (l) => lines.push(l) });
});
afterAll(() => t.close());

async function as(username: string) {
  const res = await login(t, username, DEMO_PASSWORD);
  if (res.statusCode !== 200) throw new Error(res.body);
  const token = res.json().token as string;
  return (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
}

describe('demo project insurance (PIIBS_DEMO=1)', () => {
  it('gives the contractor an annual order with projects in every state and an issued policy', async () => {
    expect(lines).toContain('demo project insurance seeded (account contractor)');
    const ctr = await as('contractor');
    const orders = (await ctr('/api/project-orders')).json();
    expect(orders.totalElements).toBe(1);
    const order = (await ctr(`/api/project-orders/${orders.content[0].id}`)).json();
    expect(order).toMatchObject({ canDeclare: true, quotaFen: 50_000_000, approvedCount: 1 });
    // Reserved: approved 39,650 (50 million, high-risk) + pending 6,500 (10 million) + returned 17,300
    // (28 million: 6,500 + 18,000,000 × 0.60‰) = 63,450 yuan; the draft holds none.
    expect(order.consumedFen).toBe(3_965_000 + 650_000 + 1_730_000);
    const declarations = (await ctr(`/api/project-declarations?orderId=${order.id}&sort=id,asc`)).json();
    expect(declarations.content.map((d: { status: string }) => d.status)).toEqual([
      'APPROVED',
      'PENDING_REVIEW',
      'RETURNED',
      'DRAFT',
    ]);
    expect(order.policies).toHaveLength(1);
    const pdf = await ctr(`/api/policies/${order.policies[0].policyId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const uw = await as('underwriter');
    expect((await uw('/api/tasks?kind=tender')).json().totalElements).toBe(1);
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoProjects(t.database.db, t.config)).toBe(0);
  });
});

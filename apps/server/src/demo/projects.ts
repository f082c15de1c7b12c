// Demo project insurance (PIIBS_DEMO=1): a contractor account (`contractor`, password Demo@2026, acting for the
// demo construction company by its code), the company as an approved customer, one annual order on 建筑施工安责险
// with a 500,000-yuan premium quota, and secondary orders in every state the contractor and the underwriter
// meet: approved with its policy issued, waiting for review (an open tender task), returned with an opinion,
// and a draft. Made through the real services. Idempotent: nothing is written once the company has an order.

import { ROLE_CODES, withUsccCheck } from '@piibs/shared';
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { annualOrders, customers, products, reviewTasks, roles, userRoles, users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { createBusinessContext } from '../modules/payments/context.ts';
import { projectViewerOf } from '../modules/project-orders/access.ts';
import { createAnnualOrder } from '../modules/project-orders/annual-orders.ts';
import type { ProjectActor } from '../modules/project-orders/common.ts';
import { createDeclaration, submitDeclaration } from '../modules/project-orders/declarations.ts';
import { decideTask } from '../modules/tasks/service.ts';
import { DEMO_PASSWORD } from './base.ts';
import { demoUser } from './user.ts';

/** The demo construction company (Zhenjiang, 321102); its code passes the GB 32100 check. */
export const DEMO_CONTRACTOR = Object.freeze({
  username: 'contractor',
  uscc: withUsccCheck('91321102MA1JY7RG3'),
  name: '镇江示例建设工程有限公司',
});

async function actorFor(db: Db, username: string): Promise<ProjectActor | null> {
  const user = await demoUser(db, username);
  if (!user) return null;
  return { user, ip: '127.0.0.1', project: await projectViewerOf(db, user) };
}

/** The contractor account and the company's customer record (approved), made when missing. */
async function ensureContractor(db: Db, underwriterId: number): Promise<number | null> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.code, ROLE_CODES.contractor));
  if (!role) return null;
  const [had] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, DEMO_CONTRACTOR.username));
  if (!had) {
    const [u] = await db
      .insert(users)
      .values({
        username: DEMO_CONTRACTOR.username,
        nickName: DEMO_CONTRACTOR.name,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        channel: 'enterprise',
        uscc: DEMO_CONTRACTOR.uscc,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (u) await db.insert(userRoles).values({ userId: u.id, roleId: role.id }).onConflictDoNothing();
  }
  await db
    .insert(customers)
    .values({
      uscc: DEMO_CONTRACTOR.uscc,
      name: DEMO_CONTRACTOR.name,
      industrySection: 'E',
      industryDivision: '47',
      region: '321102',
      address: '江苏省镇江市京口区禹山北路 18 号',
      legalRepresentative: '蒋国平',
      contactName: '许文军',
      phone: '13912810005',
      headcount: 460,
      licenceNo: null,
      createdBy: underwriterId,
      reviewStatus: 'approved',
      reviewedAt: sql`now() - interval '3 days'`,
    })
    .onConflictDoNothing();
  const [c] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.uscc, DEMO_CONTRACTOR.uscc));
  return c?.id ?? null;
}

const quiet = { info() {}, warn() {}, error() {} };

/** Writes the demo project insurance once; answers how many secondary orders it wrote. */
export async function seedDemoProjects(db: Db, config: Config): Promise<number> {
  const uw = await actorFor(db, 'underwriter');
  const [product] = await db.select().from(products).where(eq(products.code, 'JZSG_AZX_2025'));
  if (!uw || !product) return 0;
  const customerId = await ensureContractor(db, uw.user.id);
  if (!customerId) return 0;
  const [existing] = await db
    .select({ id: annualOrders.id })
    .from(annualOrders)
    .where(eq(annualOrders.customerId, customerId));
  if (existing) return 0;
  const contractor = await actorFor(db, DEMO_CONTRACTOR.username);
  if (!contractor) return 0;

  const today = shanghaiToday();
  const order = await createAnnualOrder(db, uw, {
    customerId,
    productId: product.id,
    startDate: addDays(today, -30),
    endDate: addDays(today, 334),
    quotaFen: yuan(500_000),
    note: '2026 年度框架协议：房建及市政项目逐个申报',
  });
  const project = (name: string, address: string, costYuan: number, days: number, highRisk = false) => ({
    kind: 1 as const,
    projectName: name,
    projectAddress: address,
    projectCostFen: yuan(costYuan),
    startDate: addDays(today, 3),
    endDate: addDays(today, 3 + days),
    highRisk,
    headcount: null,
  });
  const declare = (p: ReturnType<typeof project>) => createDeclaration(db, contractor, order.id, p);
  const submit = async (p: ReturnType<typeof project>) => {
    const d = await declare(p);
    return submitDeclaration(db, contractor, d.id, d.version);
  };
  const decide = async (id: number, decision: 'approve' | 'return', opinion: string) => {
    const [task] = await db
      .select({ id: reviewTasks.id, version: reviewTasks.version })
      .from(reviewTasks)
      .where(
        and(eq(reviewTasks.kind, 'tender'), eq(reviewTasks.subjectId, id), eq(reviewTasks.status, 'open')),
      );
    if (!task) return;
    const reviewer = { ...uw, viewer: uw.project.viewer, kinds: ['tender' as const] };
    await decideTask(
      db,
      reviewer,
      task.id,
      { decision, opinion, version: task.version },
      createBusinessContext({ db, config, log: quiet }),
    );
  };

  // 50,000,000 yuan: 6,500 + 24,000 = 30,500 yuan; high-risk ×1.3 = 39,650 yuan.
  const approved = await submit(
    project('润州区滨江花园二期住宅工程', '江苏省镇江市润州区滨江路 66 号', 50_000_000, 540, true),
  );
  await decide(approved.id, 'approve', '项目资料齐全，同意承保');
  // 10,000,000 yuan: 6,500 yuan (the top of the first band).
  await submit(project('京口区学府路小学改扩建工程', '江苏省镇江市京口区学府路 120 号', 10_000_000, 300));
  const returned = await submit(
    project('丹徒区高新园道路及管网工程', '江苏省镇江市丹徒区高新园纬三路', 28_000_000, 420),
  );
  await decide(returned.id, 'return', '请补充施工合同首页及危大工程专项施工方案后重新提交');
  await declare(project('新区港南路仓储厂房工程', '江苏省镇江市新区港南路 9 号', 16_500_000, 360));
  return 4;
}

// Demo endorsements and cancellations (PIIBS_DEMO=1), made through the real services: the demo enterprise's
// policy has an approved endorsement (its contact telephone changed, no premium: a numbered 批单); its named-list
// policy has a request waiting in the underwriter's 批改审核 (two new employees, priced pro rata); and the agent's
// client 镇江润扬机械制造有限公司, deregistered, has a work-safety policy cancelled with its deregistration notice,
// the refund paid back through the sandbox gateway. Idempotent: nothing is written once any exists.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { endorsementRequest } from '@piibs/shared/policy-change';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { customers, materials, policies, policyChanges, products, reviewTasks } from '../db/schema.ts';
import { actorOf } from '../lib/audit.ts';
import { createApplication } from '../modules/applications/drafts.ts';
import { submitApplication } from '../modules/applications/transitions.ts';
import { customerViewerOf } from '../modules/customers/access.ts';
import { createBusinessContext } from '../modules/payments/context.ts';
import { SandboxProvider } from '../modules/payments/sandbox.ts';
import { paymentResult, startPayment } from '../modules/payments/service.ts';
import { reviewPolicyChange, submitCancellation, submitEndorsement } from '../modules/policies/changes.ts';
import { redrawPolicyDocument } from '../modules/policies/issue.ts';
import { decideTask } from '../modules/tasks/service.ts';
import { demoEnterpriseUscc } from './base.ts';
import { moveIntoPast } from './clock.ts';
import { type DemoActor, demoMaterials } from './materials.ts';
import { DEMO_NAMED_PRODUCT } from './policies.ts';
import { demoUser } from './user.ts';

const quiet = { info() {}, warn() {}, error() {} };
const CLOSED_CLIENT = '镇江润扬机械制造有限公司';

async function actorFor(db: Db, username: string): Promise<DemoActor | null> {
  const user = await demoUser(db, username);
  if (!user) return null;
  return { user, ip: '127.0.0.1', viewer: await customerViewerOf(db, user) };
}

/** Two plainly fictitious people joining the named-list policy; their numbers pass the GB 11643 check. */
export const DEMO_JOINERS = [
  { name: '示例员工己', idNumber: '321102199506151530' },
  { name: '示例员工庚', idNumber: '32110219980920162X' },
];

/** Writes the demo endorsements and cancelled policy once; answers how many requests it made (0–3). */
export async function seedDemoPolicyChanges(db: Db, config: Config): Promise<number> {
  const [had] = await db.select({ n: sql<number>`count(*)::int` }).from(policyChanges);
  if ((had?.n ?? 0) > 0) return 0;
  const [ent, agent, uw] = await Promise.all([
    actorFor(db, 'enterprise'),
    actorFor(db, 'agent'),
    actorFor(db, 'underwriter'),
  ]);
  if (!ent || !agent || !uw) return 0;
  const ctx = createBusinessContext({ db, config, log: quiet });
  let made = 0;
  const enterpriseUscc = await demoEnterpriseUscc(db);

  // The enterprise's newest policy (the co-insured one): a new contact telephone, approved at once (no premium to pay).
  const [own] = await db
    .select({ id: policies.id })
    .from(policies)
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .where(eq(customers.uscc, enterpriseUscc))
    .orderBy(desc(policies.id))
    .limit(1);
  if (own) {
    const c = await submitEndorsement(ctx, ent.viewer, actorOf(ent), own.id, {
      effectiveDate: shanghaiToday(),
      contactPhone: '0511-85550088',
      reason: '联系人电话变更',
      idempotencyKey: 'demo-endorsement-1',
    });
    await reviewPolicyChange(ctx, uw.viewer, actorOf(uw), c.id, 'approve', '同意批改', c.version);
    made++;
  }

  // The named-list policy: two employees join from tomorrow, waiting for the underwriter.
  const [named] = await db
    .select({ id: policies.id })
    .from(policies)
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .innerJoin(products, eq(products.id, policies.productId))
    .where(and(eq(customers.uscc, enterpriseUscc), eq(products.code, DEMO_NAMED_PRODUCT.product.code)));
  if (named) {
    await submitEndorsement(
      ctx,
      ent.viewer,
      actorOf(ent),
      named.id,
      endorsementRequest.parse({
        effectiveDate: addDays(shanghaiToday(), 1),
        addPersons: DEMO_JOINERS,
        reason: '新员工入职',
        idempotencyKey: 'demo-endorsement-2',
      }),
    );
    made++;
  }

  // The agent's client: a policy issued 90 days ago, then the enterprise deregistered and cancelled.
  const [client] = await db.select().from(customers).where(eq(customers.name, CLOSED_CLIENT));
  const [product] = await db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  if (!client || !product || client.reviewStatus !== 'approved') return made;
  const draft = await createApplication(db, agent, {
    productId: product.id,
    customerId: client.id,
    policyholderType: 1,
  });
  await demoMaterials(db, config).attachNeeded(agent, draft.id);
  await submitApplication(db, agent, draft.id, draft.version);
  const [task] = await db
    .select({ id: reviewTasks.id, version: reviewTasks.version })
    .from(reviewTasks)
    .where(
      and(
        eq(reviewTasks.kind, 'application'),
        eq(reviewTasks.subjectId, draft.id),
        eq(reviewTasks.status, 'open'),
      ),
    );
  if (!task) return made;
  await decideTask(db, { ...uw, kinds: ['application'] }, task.id, {
    decision: 'approve',
    opinion: '资料齐全，同意承保',
    version: task.version,
  });
  const charge = await startPayment(ctx, agent.viewer, draft.id, agent.ip);
  const sandbox = ctx.providers.sandbox;
  if (!(sandbox instanceof SandboxProvider)) return made;
  await sandbox.pay(charge.chargeNo, { notify: false });
  const result = await paymentResult(ctx, agent.viewer, charge.payId);
  if (!result.policyId) return made;
  await moveIntoPast(db, draft.id, 90);
  await redrawPolicyDocument(ctx, result.policyId);
  const [proof] = await db
    .select({ id: materials.id })
    .from(materials)
    .where(and(eq(materials.businessType, 'application'), eq(materials.businessId, draft.id)));
  const c = await submitCancellation(ctx, agent.viewer, actorOf(agent), result.policyId, {
    effectiveDate: shanghaiToday(),
    reason: 'DEREGISTERED',
    ...(proof ? { proofMaterialId: proof.id } : {}),
    note: '企业已办理注销登记，附注销通知书',
    idempotencyKey: 'demo-cancellation-1',
  });
  await reviewPolicyChange(ctx, uw.viewer, actorOf(uw), c.id, 'approve', '注销材料属实，同意退保', c.version);
  return made + 1;
}

// Demo policies (PIIBS_DEMO=1): two paid and issued policies of the demo enterprise, so the policy journey (我的保单,
// detail, e-policy PDF, verification, renewal) can be walked at once: one issued DEMO_RENEWAL_AGE_DAYS ago, ending
// within the 90-day renewal window (续保 can be tried), and one co-insured (the issuer leading with 70%) issued
// DEMO_POLICY_AGE_DAYS ago, in force with most of its year ahead (its page says when renewal opens). Made
// through the real services: created, given the documents its product requires, submitted, approved by the demo
// underwriter, paid at the sandbox gateway, learnt by the active query (as the result page does), issued.
// A third, issued DEMO_NAMED_AGE_DAYS ago, is of the demo's product that asks for a named insured list
// (安全生产责任保险（实名制）: the 工贸行业 covers and rates, 需要从业人员名单), with five plainly fictitious people
// whose identity card numbers pass the GB 11643 check, entered through the list service (the headcount follows).
// Idempotent: nothing is written once the demo enterprise has a policy.
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { applications, customers, policies, products, reviewTasks } from '../db/schema.ts';
import { createApplication, replaceCoinsurers } from '../modules/applications/drafts.ts';
import { replaceInsuredList } from '../modules/applications/insured-persons.ts';
import { submitApplication } from '../modules/applications/transitions.ts';
import { customerViewerOf } from '../modules/customers/access.ts';
import { createBusinessContext } from '../modules/payments/context.ts';
import { SandboxProvider } from '../modules/payments/sandbox.ts';
import { paymentResult, startPayment } from '../modules/payments/service.ts';
import { redrawPolicyDocument } from '../modules/policies/issue.ts';
import { insertSeedProduct, SEED_PRODUCTS } from '../modules/products/seed.ts';
import { decideTask } from '../modules/tasks/service.ts';
import { demoEnterpriseUscc } from './base.ts';
import { moveIntoPast } from './clock.ts';
import { type DemoActor, demoMaterials } from './materials.ts';
import { demoUser } from './user.ts';

async function actorFor(db: Db, username: string): Promise<DemoActor | null> {
  const user = await demoUser(db, username);
  if (!user) return null;
  return { user, ip: '127.0.0.1', viewer: await customerViewerOf(db, user) };
}

const quiet = { info() {}, warn() {}, error() {} };

/** How long ago the demo policy was issued (and started): it is in force, with most of its year ahead. */
export const DEMO_POLICY_AGE_DAYS = 60;

/**
 * How long ago the renewal demo policy was issued: it started the day after, so it ends about 65 days from the
 * demo's first start, inside the renewal window (RENEWAL_WINDOW_DAYS = 90).
 */
export const DEMO_RENEWAL_AGE_DAYS = 300;

/**
 * How long ago the named-list policy was issued: in force, most of its year ahead, and paid inside the
 * dashboard's default range (近 30 天), so 实收保费 has a figure on a fresh demo.
 */
const DEMO_NAMED_AGE_DAYS = 20;

/** The demo's product that asks for the 从业人员名单: the 工贸行业 product's covers and rates. */
export const DEMO_NAMED_PRODUCT = {
  ...SEED_PRODUCTS[0]!,
  product: {
    ...SEED_PRODUCTS[0]!.product,
    code: 'AZX_SM_2025',
    name: '安全生产责任保险（实名制）',
    namedInsuredRequired: true,
    allowsCoinsurance: false,
    description: '工贸行业生产经营单位；按人计费，须提交从业人员名单（姓名、身份证号码），参保人数以名单为准',
  },
};

/** Five plainly fictitious people (示例员工), numbers of 镇江京口区 passing the GB 11643 check. */
export const DEMO_NAMED_PERSONS = [
  { name: '示例员工甲', idNumber: '321102198503121016' },
  { name: '示例员工乙', idNumber: '321102199007261129' },
  { name: '示例员工丙', idNumber: '321102198811051232' },
  { name: '示例员工丁', idNumber: '321102199302181340' },
  { name: '示例员工戊', idNumber: '321102197909301450' },
];

/** Writes the demo policies once; answers how many policies it issued (0 to 3). */
export async function seedDemoPolicies(db: Db, config: Config): Promise<number> {
  const [ent, uw] = await Promise.all([actorFor(db, 'enterprise'), actorFor(db, 'underwriter')]);
  const [customer] = await db
    .select()
    .from(customers)
    .where(eq(customers.uscc, await demoEnterpriseUscc(db)));
  const [product] = await db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  if (!ent || !uw || !customer || !product || customer.reviewStatus !== 'approved') return 0;
  const [had] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(policies)
    .where(eq(policies.customerId, customer.id));
  if ((had?.n ?? 0) > 0) return 0;

  const [existing] = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, DEMO_NAMED_PRODUCT.product.code));
  const namedId = existing?.id ?? (await db.transaction((tx) => insertSeedProduct(tx, DEMO_NAMED_PRODUCT)));

  // The named one and the renewal one first: the risk-control demo plans its services on the newest policy
  // (the co-insured one, in force, a year ahead).
  let issued = 0;
  for (const [id, age, coinsured, persons] of [
    [namedId, DEMO_NAMED_AGE_DAYS, false, DEMO_NAMED_PERSONS],
    [product.id, DEMO_RENEWAL_AGE_DAYS, false, null],
    [product.id, DEMO_POLICY_AGE_DAYS, true, null],
  ] as const) {
    if (!(await issueDemoPolicy(db, config, ent, uw, customer.id, id, age, coinsured, persons))) break;
    issued++;
  }
  return issued;
}

/** One application made, approved, paid and issued through the real services, then moved `age` days back. */
async function issueDemoPolicy(
  db: Db,
  config: Config,
  ent: DemoActor,
  uw: DemoActor,
  customerId: number,
  productId: number,
  age: number,
  coinsured: boolean,
  persons: readonly { name: string; idNumber: string }[] | null,
): Promise<boolean> {
  const draft = await createApplication(db, ent, {
    productId,
    customerId,
    policyholderType: 1,
  });
  const shared = coinsured
    ? await replaceCoinsurers(db, ent, draft.id, {
        version: draft.version,
        shares: [
          { insurerCode: ISSUER_CODE, lead: true, share: '70' },
          { insurerCode: 'PICC', lead: false, share: '30' },
        ],
      })
    : draft;
  if (persons) await replaceInsuredList(db, ent, draft.id, shared.version, persons);
  await demoMaterials(db, config).attachNeeded(ent, draft.id);
  const [now] = await db
    .select({ version: applications.version })
    .from(applications)
    .where(eq(applications.id, draft.id));
  await submitApplication(db, ent, shared.id, now!.version);
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
  if (!task) return false;
  await decideTask(db, { ...uw, kinds: ['application'] }, task.id, {
    decision: 'approve',
    opinion: '资料齐全，同意承保',
    version: task.version,
  });

  const ctx = createBusinessContext({ db, config, log: quiet });
  const charge = await startPayment(ctx, ent.viewer, draft.id, ent.ip);
  const sandbox = ctx.providers.sandbox;
  if (!(sandbox instanceof SandboxProvider)) return false;
  await sandbox.pay(charge.chargeNo, { notify: false });
  const result = await paymentResult(ctx, ent.viewer, charge.payId);
  if (!result.policyId) return false;
  // The demo's clock: the policy was applied for, paid and issued `age` days ago, so it is in force (and its
  // prevention services are performed within its period); its e-policy is drawn again to match.
  await moveIntoPast(db, draft.id, age);
  await redrawPolicyDocument(ctx, result.policyId);
  return true;
}

// Demo applications (PIIBS_DEMO=1): one in every state of the journeys, made through the real services so each
// carries a real quote from the seeded products, its timeline and its audit trail:
//   the demo enterprise  DRAFT · PENDING_REVIEW (co-insured with the issuer leading, an open task for the
//                        underwriter) · PENDING_PAYMENT (with its payment order)
//   the demo agent       RETURNED (with an opinion, asking for the 签章投保单) · DECLINED · CANCELLED · a
//                        construction DRAFT
// Each submitted one carries the documents its product requires (demo/materials.ts): the demo enterprise's
// 营业执照 is on its customer record (it counts for every application of it), the rest on the applications.
// Idempotent: nothing is written once the demo accounts own an application (one server per DATA_DIR).
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { LICENCE_DOC_TYPE } from '@piibs/shared/material';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { applications, customers, products, reviewTasks } from '../db/schema.ts';
import type { ApplicationActor } from '../modules/applications/changes.ts';
import { createApplication, replaceCoinsurers, saveDraft } from '../modules/applications/drafts.ts';
import { cancelApplication, submitApplication } from '../modules/applications/transitions.ts';
import { customerViewerOf } from '../modules/customers/access.ts';
import { decideTask } from '../modules/tasks/service.ts';
import { DEMO_CUSTOMERS, DEMO_ENTERPRISE, demoEnterpriseUscc } from './base.ts';
import { type DemoActor, demoMaterials } from './materials.ts';
import { demoUser } from './user.ts';

async function actorFor(db: Db, username: string): Promise<DemoActor | null> {
  const user = await demoUser(db, username);
  if (!user) return null;
  return { user, ip: '127.0.0.1', viewer: await customerViewerOf(db, user) };
}

/** Writes the demo applications once; answers how many it wrote. */
export async function seedDemoApplications(db: Db, config: Pick<Config, 'dataDir'>): Promise<number> {
  const [ent, agent, uw] = await Promise.all([
    actorFor(db, 'enterprise'),
    actorFor(db, 'agent'),
    actorFor(db, 'underwriter'),
  ]);
  if (!ent || !agent || !uw) return 0;
  {
    const [existing] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(applications)
      .where(inArray(applications.ownerId, [ent.user.id, agent.user.id]));
    if ((existing?.n ?? 0) > 0) return 0;
    const idOf = async (table: 'product' | 'customer', key: string) => {
      const [row] =
        table === 'product'
          ? await db.select({ id: products.id }).from(products).where(eq(products.code, key))
          : await db.select({ id: customers.id }).from(customers).where(eq(customers.uscc, key));
      return row?.id;
    };
    const azx = await idOf('product', 'AZX_GM_2025');
    const jzsg = await idOf('product', 'JZSG_AZX_2025');
    const entCustomer = await idOf('customer', await demoEnterpriseUscc(db));
    const client = await idOf('customer', DEMO_CUSTOMERS[1]!.uscc);
    if (!azx || !jzsg || !entCustomer || !client) return 0;

    const docs = demoMaterials(db, config);
    await docs.attach(
      ent,
      { businessType: 'customer', businessId: entCustomer, holder: DEMO_ENTERPRISE.name },
      [LICENCE_DOC_TYPE],
    );
    const make = (who: ApplicationActor, productId: number, customerId: number) =>
      createApplication(db, who, { productId, customerId, policyholderType: 1 });
    const submitted = async (who: DemoActor, productId: number, customerId: number) => {
      const a = await make(who, productId, customerId);
      await docs.attachNeeded(who, a.id);
      return submitApplication(db, who, a.id, a.version);
    };
    const decide = async (
      id: number,
      decision: 'approve' | 'return' | 'reject',
      opinion?: string,
      docTypes?: string[],
    ) => {
      const [task] = await db
        .select({ id: reviewTasks.id, version: reviewTasks.version })
        .from(reviewTasks)
        .where(
          and(
            eq(reviewTasks.kind, 'application'),
            eq(reviewTasks.subjectId, id),
            eq(reviewTasks.status, 'open'),
          ),
        );
      if (!task) return;
      await decideTask(db, { ...uw, kinds: ['application'] }, task.id, {
        decision,
        opinion: opinion ?? null,
        ...(docTypes ? { docTypes } : {}),
        version: task.version,
      });
    };
    let written = 0;

    // The enterprise: a draft with factors chosen …
    const draft = await make(ent, azx, entCustomer);
    await saveDraft(db, ent, draft.id, {
      version: draft.version,
      factors: { ACCIDENT_HISTORY: 'NONE', SAFETY_AWARD: 'LEVEL3' },
      specialTerms: '每次事故绝对免赔额 1000 元。',
    });
    written++;
    // … a co-insured application waiting for review …
    const co = await make(ent, azx, entCustomer);
    const shared = await replaceCoinsurers(db, ent, co.id, {
      version: co.version,
      shares: [
        { insurerCode: ISSUER_CODE, lead: true, share: '60' },
        { insurerCode: 'CPIC', lead: false, share: '25.5' },
        { insurerCode: 'PAIC', lead: false, share: '14.5' },
      ],
    });
    await docs.attachNeeded(ent, co.id);
    await submitApplication(db, ent, shared.id, shared.version);
    written++;
    // … and an approved one waiting for payment.
    const approved = await submitted(ent, azx, entCustomer);
    await decide(approved.id, 'approve', '资料齐全，同意承保');
    written++;

    // The agent's client: returned with an opinion, declined, cancelled, and a construction draft.
    const returned = await submitted(agent, azx, client);
    await decide(
      returned.id,
      'return',
      '参保人数与社保缴纳人数不一致，请核实后重新提交，并补充加盖公章的投保单',
      ['SIGNED_APPLICATION'],
    );
    written++;
    const declined = await submitted(agent, azx, client);
    await decide(declined.id, 'reject', '近三年发生较大生产安全事故，暂不予承保');
    written++;
    const cancelled = await make(agent, azx, client);
    await cancelApplication(db, agent, cancelled.id, cancelled.version);
    written++;
    const project = await make(agent, jzsg, client);
    await saveDraft(db, agent, project.id, {
      version: project.version,
      projectName: '润扬机械新厂房一期工程',
      projectAddress: '江苏省镇江市京口区学府路 301 号',
      projectCostFen: 3_500_000_000,
      highRisk: true,
    });
    written++;
    return written;
  }
}

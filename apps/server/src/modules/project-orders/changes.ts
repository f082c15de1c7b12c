// Changes (批改, kind-2 secondary orders) of an approved project whose policy is issued. Making one copies the
// project (its name, start and order stay), applies what the contractor changes, prices it on the active rate
// table and keeps the project's values and premium as they stood (`base_values`): the premium difference and
// the endorsement's before → after come from that snapshot. The project cannot change while the change is open
// (one open change per project: the partial unique index secondary_order_open_change), so the snapshot stays
// true until the decision. Saving, submitting and cancelling a change: declarations.ts; the decision: review.ts.
import { shanghaiToday } from '@piibs/shared/application-status';
import {
  DECLARATION_OPEN,
  type DeclarationDetail,
  type declarationChangeForm,
  projectValuesOf,
} from '@piibs/shared/project-order';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { annualOrders, customers, policies, secondaryOrders } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { declarationsVisibleTo, declaresFor } from './access.ts';
import { DECLARATION_NOT_FOUND, NOT_DECLARER, ORDER_CLOSED, type ProjectActor } from './common.ts';
import { getDeclaration } from './declaration-queries.ts';
import { checkChange, insertDeclaration } from './declarations.ts';

const CHANGE_OPEN = '该项目已有未完成的批改申报，请先完成或撤销后再发起';

/**
 * POST /api/project-declarations/:id/changes: a change (DRAFT, priced, holding nothing yet) of an approved
 * project the caller declares for. 404 when they may not see it, 403 when they do not declare for its order,
 * 409 when the project cannot be changed now (not approved, policy not issued, ended, order closed, a change
 * already open), 400 naming the field for the new values.
 */
export async function createChange(
  db: Db,
  actor: ProjectActor,
  baseId: number,
  form: z.infer<typeof declarationChangeForm>,
): Promise<DeclarationDetail> {
  const [base] = await db
    .select({
      project: secondaryOrders,
      order: annualOrders,
      customerUscc: customers.uscc,
      customerOwnerId: customers.ownerId,
      policyId: policies.id,
    })
    .from(secondaryOrders)
    .innerJoin(annualOrders, eq(annualOrders.id, secondaryOrders.annualOrderId))
    .innerJoin(customers, eq(customers.id, annualOrders.customerId))
    .leftJoin(policies, eq(policies.applicationId, secondaryOrders.applicationId))
    .where(and(eq(secondaryOrders.id, baseId), declarationsVisibleTo(db, actor.project)));
  if (!base) throw notFound(DECLARATION_NOT_FOUND);
  const { project: p, order } = base;
  if (!declaresFor(actor.project, { uscc: base.customerUscc, ownerId: base.customerOwnerId }))
    throw forbidden(NOT_DECLARER);
  if (p.kind !== 1) throw conflict('批改申报须在原项目上发起，不能对批改申报再发起批改');
  if (p.status !== 'APPROVED') throw conflict('只有审核通过的项目可以申请批改');
  if (!base.policyId) throw conflict('该项目的保单尚未出具，请稍后再申请批改');
  if (order.closedAt) throw conflict(ORDER_CLOSED);
  if (p.endDate < shanghaiToday()) throw conflict('该项目保险期间已结束，不能批改');
  const [open] = await db
    .select({ id: secondaryOrders.id })
    .from(secondaryOrders)
    .where(and(eq(secondaryOrders.baseId, p.id), inArray(secondaryOrders.status, [...DECLARATION_OPEN])));
  if (open) throw conflict(CHANGE_OPEN);

  const values = projectValuesOf(p);
  const input = { ...form, projectName: p.projectName, startDate: p.startDate };
  checkChange({ projectName: p.projectName, startDate: p.startDate, values }, input);
  let id: number;
  try {
    id = await db.transaction((tx) => insertDeclaration(tx, actor, order, input, { baseId: p.id, values }));
  } catch (err) {
    // Two changes of the same project at once: the partial unique index lets one through.
    if (isUniqueViolation(err)) throw conflict(CHANGE_OPEN);
    throw err;
  }
  return getDeclaration(db, actor.project, id);
}

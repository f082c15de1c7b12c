// Who may see which annual orders and secondary orders. A record the caller may not see answers 404, never 403.
//   admin / staff with scope 'all'   everything;
//   contractor (role 'contractor')   the orders of their own company: the customer whose code equals the
//                                    account's uscc (as an enterprise account is linked);
//   enterprise (role '17')           likewise, by the account's uscc;
//   agent                            the orders of their own clients (customers they own);
//   staff (other roles)              by data scope: orders of customers in scope, and orders made by users in
//                                    scope.
// A secondary order is visible exactly when its annual order is. Changing a secondary order (save, submit,
// cancel) is for the user who declared it (or the agent entering it): 403 otherwise.
import { ROLE_CODES } from '@piibs/shared';
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { annualOrders, customers, reviewTasks, secondaryOrders, users } from '../../db/schema.ts';
import { usersInScope } from '../../lib/data-scope.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { type CustomerViewer, customersVisibleTo, customerViewerOf } from '../customers/access.ts';

export interface ProjectViewer {
  viewer: CustomerViewer;
  /** The company code a contractor or enterprise account acts for (null for the others). */
  uscc: string | null;
  isContractor: boolean;
}

export async function projectViewerOf(db: Db, user: RequestUser): Promise<ProjectViewer> {
  const viewer = await customerViewerOf(db, user);
  const isContractor = user.roles.includes(ROLE_CODES.contractor);
  let uscc = viewer.uscc;
  if (isContractor && !uscc) {
    const [me] = await db.select({ uscc: users.uscc }).from(users).where(eq(users.id, user.id));
    uscc = me?.uscc ?? null;
  }
  return { viewer, uscc, isContractor };
}

/** A reviewer's viewer (from the task service) as a project viewer: staff, no company of their own. */
export const reviewerProjectViewer = (viewer: CustomerViewer): ProjectViewer => ({
  viewer,
  uscc: null,
  isContractor: false,
});

/** A viewer that sees everything: for reads after the access check has been made. */
export const seeAllProjects = (p: ProjectViewer): ProjectViewer => ({
  ...p,
  viewer: { ...p.viewer, staffScope: { all: true } },
});

/** The WHERE condition of the annual orders a viewer may see (undefined: all). */
export function annualOrdersVisibleTo(db: Pick<Db, 'select'>, p: ProjectViewer): SQL | undefined {
  const v = p.viewer;
  if (v.staffScope?.all) return undefined;
  const visibleCustomers = customersVisibleTo(db, v);
  const conditions: SQL[] = [
    inArray(annualOrders.customerId, db.select({ id: customers.id }).from(customers).where(visibleCustomers)),
  ];
  if (p.uscc && (p.isContractor || v.isEnterprise))
    conditions.push(
      inArray(
        annualOrders.customerId,
        db.select({ id: customers.id }).from(customers).where(eq(customers.uscc, p.uscc)),
      ),
    );
  if (v.staffScope) {
    const inScope = db.select({ id: users.id }).from(users).where(usersInScope(v.staffScope));
    conditions.push(inArray(annualOrders.createdBy, inScope));
  }
  return or(...conditions);
}

/** The WHERE condition of the secondary orders a viewer may see: those of the annual orders they see. */
export function declarationsVisibleTo(db: Pick<Db, 'select'>, p: ProjectViewer): SQL | undefined {
  const orders = annualOrdersVisibleTo(db, p);
  if (!orders) return undefined;
  return inArray(
    secondaryOrders.annualOrderId,
    db.select({ id: annualOrders.id }).from(annualOrders).where(orders),
  );
}

/** The condition limiting review tasks of kind 'tender' to secondary orders the reviewer may see. */
export function tenderTasksVisibleTo(db: Db, viewer: CustomerViewer): SQL | undefined {
  const visible = declarationsVisibleTo(db, reviewerProjectViewer(viewer));
  if (!visible) return undefined;
  return sql`${reviewTasks.subjectId} in (select ${secondaryOrders.id} from ${secondaryOrders} where ${visible})`;
}

/**
 * The contractor's side of an annual order, who may declare against it: the company's own account (its uscc),
 * the agent who owns the customer, or an administrator.
 */
export function declaresFor(p: ProjectViewer, customer: { uscc: string; ownerId: number | null }): boolean {
  if (p.viewer.user.roles.includes(ROLE_CODES.admin)) return true;
  if (p.uscc && p.uscc === customer.uscc) return true;
  return p.viewer.isAgent && customer.ownerId === p.viewer.user.id;
}

/** The user who declared a secondary order, or the agent entering it, may change it. */
export const isDeclarationOwner = (
  d: { ownerId: number | null; agentId: number | null },
  userId: number,
): boolean => d.ownerId === userId || d.agentId === userId;

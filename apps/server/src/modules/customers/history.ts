// A customer's history (客户历史) for the review pages: their policies and their applications that were ever
// submitted, newest first, at most CUSTOMER_HISTORY_LIMIT of each with the total. 404 unless the caller may see
// the customer; of those, only the policies and applications the caller may see (as their own lists).
import { APPLICATION_STATUS_LABELS, type ApplicationStatus } from '@piibs/shared/application-status';
import { CUSTOMER_HISTORY_LIMIT, type CustomerHistory } from '@piibs/shared/customer-history';
import { POLICY_STATUS_LABELS, policyStatusOn } from '@piibs/shared/policy';
import { and, count, desc, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications, policies, products } from '../../db/schema.ts';
import { applicationsVisibleTo } from '../applications/access.ts';
import { policiesVisibleTo } from '../policies/service.ts';
import type { CustomerViewer } from './access.ts';
import { getCustomer } from './service.ts';

/** GET /api/customers/:id/history: `exclude` is the application under review (left out, with its policy). */
export async function customerHistory(
  db: Db,
  viewer: CustomerViewer,
  id: number,
  exclude?: number,
): Promise<CustomerHistory> {
  await getCustomer(db, viewer, id);
  const policyWhere = and(
    eq(policies.customerId, id),
    policiesVisibleTo(db, viewer),
    exclude ? ne(policies.applicationId, exclude) : undefined,
  );
  const applicationWhere = and(
    eq(applications.customerId, id),
    isNotNull(applications.submittedAt),
    applicationsVisibleTo(db, viewer),
    exclude ? ne(applications.id, exclude) : undefined,
  );
  const [policyRows, [policyCount], applicationRows, [applicationCount]] = await Promise.all([
    db
      .select({
        id: policies.id,
        number: policies.number,
        productName: products.name,
        startDate: policies.startDate,
        endDate: policies.endDate,
        premiumFen: policies.premiumFen,
        status: policies.status,
      })
      .from(policies)
      .innerJoin(products, eq(products.id, policies.productId))
      .where(policyWhere)
      .orderBy(desc(policies.issuedAt), desc(policies.id))
      .limit(CUSTOMER_HISTORY_LIMIT),
    db.select({ n: count() }).from(policies).where(policyWhere),
    db
      .select({
        id: applications.id,
        number: applications.number,
        productName: products.name,
        policyholderType: applications.policyholderType,
        submittedAt: applications.submittedAt,
        status: applications.status,
      })
      .from(applications)
      .innerJoin(products, eq(products.id, applications.productId))
      .where(applicationWhere)
      .orderBy(desc(applications.submittedAt), desc(applications.id))
      .limit(CUSTOMER_HISTORY_LIMIT),
    db.select({ n: count() }).from(applications).where(applicationWhere),
  ]);
  return {
    policies: {
      content: policyRows.map((p) => {
        const status = policyStatusOn(p);
        return { ...p, status, statusLabel: POLICY_STATUS_LABELS[status] };
      }),
      totalElements: policyCount?.n ?? 0,
    },
    applications: {
      content: applicationRows.map((a) => {
        const status = a.status as ApplicationStatus;
        return {
          ...a,
          policyholderType: a.policyholderType === 2 ? 2 : 1,
          submittedAt: a.submittedAt!.toISOString(),
          status,
          statusLabel: APPLICATION_STATUS_LABELS[status],
        };
      }),
      totalElements: applicationCount?.n ?? 0,
    },
  };
}

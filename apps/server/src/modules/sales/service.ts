// Sales supplements (补录): the sales information of an issued policy — salesperson, agent, commission rate
// (≤ the product's cap ≤ 5%), business source, and for the NBNMG variant (农民工工资保证) the project, migrant
// workers, wage account, labour-contract filing and supervising authority. One per policy; saved with its version
// (409 when stale); a salesperson change (updateSale) keeps its history. Every change is audited in the same
// transaction.
//
// Reading follows the policy, which follows its application (policiesVisibleTo): a policy the caller may not
// see answers 404.
import { shanghaiToday } from '@piibs/shared/application-status';
import { microPercentText } from '@piibs/shared/money';
import { POLICY_NOT_FOUND, POLICY_STATUS_LABELS, policyStatusOn } from '@piibs/shared/policy';
import {
  BUSINESS_SOURCE_DICT,
  BUSINESS_SOURCES,
  commissionCapProblem,
  maskAccountNo,
  NBNMG_FIELDS,
  type PolicySales,
  type SALES_SORT_FIELDS,
  SAME_SALESPERSON,
  type SalespersonChangeRow,
  type SalesRow,
  SUPPLEMENT_EXISTS,
  SUPPLEMENT_NOT_FOUND,
  SUPPLEMENT_STATUS_LABELS,
  type SupplementDetail,
  type SupplementStatus,
  type SupplementVariant,
  type salespersonChangeForm,
  type supplementForm,
} from '@piibs/shared/sales';
import { and, count, desc, eq, gte, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  applications,
  dictDetails,
  dicts,
  policies,
  products,
  roles,
  salespersonChanges,
  salesSupplements,
  userRoles,
  users,
} from '../../db/schema.ts';
import { type Actor, actorNameOf, diff, entityAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, fieldError, notFound, problemError } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { type CountCache, dataVersionOf } from '../../lib/keyset.ts';
import { type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { policyScopeBranches } from '../applications/access.ts';
import { type CustomerViewer, viewerScopeKey } from '../customers/access.ts';
import { dictLabel } from '../dicts/codes.ts';
import { mergedPage, NEWEST_FIRST, policiesVisibleTo } from '../policies/service.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

type Supplement = typeof salesSupplements.$inferSelect;

/** The caller of a change: who, from where and what they may see. */
export interface SalesActor extends Actor {
  viewer: CustomerViewer;
}

// ---- the list ----

/** The sales list's data versions: the policies' and the supplements' (migrations 0028, 0029). */
const CHANGE_SEQUENCES = ['policy_data_version_seq', 'sales_supplement_version_seq'];

const listColumns = {
  policyId: policies.id,
  number: policies.number,
  productId: policies.productId,
  productName: products.name,
  holderName: policies.holderName,
  holderUscc: policies.holderUscc,
  insuredName: policies.insuredName,
  startDate: policies.startDate,
  endDate: policies.endDate,
  premiumFen: policies.premiumFen,
  status: policies.status,
  issuedAt: policies.issuedAt,
  supplementId: salesSupplements.id,
  variant: salesSupplements.variant,
  salespersonName: salesSupplements.salespersonName,
  salespersonNo: salesSupplements.salespersonNo,
  agentName: salesSupplements.agentName,
  commissionRate: salesSupplements.commissionRate,
  businessSource: salesSupplements.businessSource,
  businessSourceLabel: dictLabel(BUSINESS_SOURCE_DICT, salesSupplements.businessSource),
  wageAccountNo: salesSupplements.wageAccountNo,
  supplementedAt: salesSupplements.updatedAt,
  version: salesSupplements.version,
  dataVersion: dataVersionOf(...CHANGE_SEQUENCES),
};

const selectList = (db: Db) =>
  db
    .select(listColumns)
    .from(policies)
    .innerJoin(products, eq(products.id, policies.productId))
    .leftJoin(salesSupplements, eq(salesSupplements.policyId, policies.id));
type ListRaw = Awaited<ReturnType<typeof selectList>>[number];

const sourceLabelFallback = (value: string | null) =>
  value === null ? null : (BUSINESS_SOURCES.find(([v]) => v === value)?.[1] ?? null);

function toListRow(r: ListRaw, today: string): SalesRow {
  const policyStatus = policyStatusOn(r, today);
  const supplementStatus: SupplementStatus = r.supplementId === null ? 'NONE' : 'DONE';
  return {
    policyId: r.policyId,
    number: r.number,
    productId: r.productId,
    productName: r.productName,
    holderName: r.holderName,
    holderUscc: r.holderUscc,
    insuredName: r.insuredName,
    startDate: r.startDate,
    endDate: r.endDate,
    premiumFen: r.premiumFen,
    policyStatus,
    policyStatusLabel: POLICY_STATUS_LABELS[policyStatus],
    issuedAt: r.issuedAt.toISOString(),
    supplementStatus,
    supplementStatusLabel: SUPPLEMENT_STATUS_LABELS[supplementStatus],
    supplementId: r.supplementId,
    variant: r.variant as SupplementVariant | null,
    salespersonName: r.salespersonName,
    salespersonNo: r.salespersonNo,
    agentName: r.agentName,
    commissionRate: r.commissionRate,
    commissionRateText: r.commissionRate === null ? null : microPercentText(r.commissionRate),
    businessSource: r.businessSource,
    businessSourceLabel: r.businessSourceLabel ?? sourceLabelFallback(r.businessSource),
    wageAccountNo: maskAccountNo(r.wageAccountNo),
    supplementedAt: r.supplementedAt?.toISOString() ?? null,
    version: r.version,
  };
}

export interface SalesFilter {
  status?: SupplementStatus | undefined;
  variant?: SupplementVariant | undefined;
  productId?: number | undefined;
  businessSource?: string | undefined;
  blurry?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type SortField = (typeof SALES_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: policies.id,
  number: policies.number,
  issuedAt: policies.issuedAt,
  endDate: policies.endDate,
  premiumFen: policies.premiumFen,
  supplementedAt: salesSupplements.updatedAt,
};

/**
 * GET /api/sales: the issued policies the viewer may see with their supplement status; newest first. With
 * `counts`, the count is cached per filter and data scope until a policy or a supplement changes (or 30 s pass).
 */
export function salesListSpec(
  db: Db,
  viewer: CustomerViewer,
  f: SalesFilter,
  counts?: CountCache,
): ListSpec<SortField, SalesRow> {
  const today = shanghaiToday();
  // What a policy alone decides, and what its supplement does.
  const onPolicy = and(
    f.productId ? eq(policies.productId, f.productId) : undefined,
    f.startTime ? gte(policies.issuedAt, f.startTime) : undefined,
    f.endTime ? lte(policies.issuedAt, f.endTime) : undefined,
  );
  const onSupplement = and(
    f.status === 'NONE'
      ? isNull(salesSupplements.id)
      : f.status === 'DONE'
        ? isNotNull(salesSupplements.id)
        : undefined,
    f.variant ? eq(salesSupplements.variant, f.variant) : undefined,
    f.businessSource ? eq(salesSupplements.businessSource, f.businessSource) : undefined,
    blurry(
      f.blurry,
      policies.number,
      policies.holderName,
      policies.holderUscc,
      policies.insuredName,
      salesSupplements.salespersonName,
      salesSupplements.salespersonNo,
    ),
  );
  const branches = policyScopeBranches(db, viewer);
  const where = and(branches && or(...branches), onPolicy, onSupplement);
  let version: string | undefined;
  const countAll = async () =>
    (
      await db
        .select({ n: count() })
        .from(policies)
        .leftJoin(salesSupplements, eq(salesSupplements.policyId, policies.id))
        .where(where)
    )[0]?.n ?? 0;
  return {
    columns: sortColumns,
    defaultOrder: [NEWEST_FIRST],
    fetch: async (q) => {
      // Newest first under a scope of several branches, filtered on the policy alone: each branch's first rows
      // along its own index, merged (as the policy list). An OR of the branches walked every policy newest first.
      const merged = onSupplement ? undefined : mergedPage(branches, onPolicy, q);
      const rows = merged
        ? await pageRows(db, selectList(db), merged, { ...q, offset: 0 })
        : await pageRows(db, selectList(db), where, q);
      version = rows[0]?.dataVersion;
      return rows.map((r) => toListRow(r, today));
    },
    count: async () => {
      if (!counts) return countAll();
      const { status, variant, productId, businessSource, blurry, startTime, endTime } = f;
      const key = [
        viewerScopeKey(viewer),
        status,
        variant,
        productId,
        businessSource,
        blurry,
        startTime,
        endTime,
      ];
      return counts.ofList(db, key, version, CHANGE_SEQUENCES, countAll);
    },
  };
}

// ---- one policy ----

interface VisiblePolicy {
  id: number;
  number: string;
  applicationId: number;
  productId: number;
  productName: string;
  commissionCap: number;
  holderName: string;
  holderUscc: string;
  insuredName: string;
  startDate: string;
  endDate: string;
  premiumFen: number;
  status: string;
  issuedAt: Date;
}

const policyColumns = {
  id: policies.id,
  number: policies.number,
  applicationId: policies.applicationId,
  productId: policies.productId,
  productName: products.name,
  commissionCap: products.commissionCap,
  holderName: policies.holderName,
  holderUscc: policies.holderUscc,
  insuredName: policies.insuredName,
  startDate: policies.startDate,
  endDate: policies.endDate,
  premiumFen: policies.premiumFen,
  status: policies.status,
  issuedAt: policies.issuedAt,
};

/** A policy the viewer may see (404 otherwise); `lock` locks the policy row for a change. */
async function visiblePolicy(
  db: Db | Tx,
  viewer: CustomerViewer,
  id: number,
  lock = false,
): Promise<VisiblePolicy> {
  const q = db
    .select(policyColumns)
    .from(policies)
    .innerJoin(products, eq(products.id, policies.productId))
    .where(and(eq(policies.id, id), policiesVisibleTo(db as Db, viewer)));
  const [row] = lock ? await q.for('update', { of: policies }) : await q;
  if (!row) throw notFound(POLICY_NOT_FOUND);
  return row;
}

const updater = alias(users, 'supplement_updater');

async function supplementOf(db: Db | Tx, policyId: number): Promise<SupplementDetail | null> {
  const [row] = await db
    .select({
      s: salesSupplements,
      sourceLabel: dictLabel(BUSINESS_SOURCE_DICT, salesSupplements.businessSource),
      updatedBy: sql<string | null>`coalesce(${updater.nickName}, ${updater.username})`,
    })
    .from(salesSupplements)
    .leftJoin(updater, eq(updater.id, salesSupplements.updatedBy))
    .where(eq(salesSupplements.policyId, policyId));
  if (!row) return null;
  const s = row.s;
  return {
    id: s.id,
    policyId: s.policyId,
    variant: s.variant as SupplementVariant,
    salespersonName: s.salespersonName,
    salespersonNo: s.salespersonNo,
    agentUserId: s.agentUserId,
    agentName: s.agentName,
    agentLicenceNo: s.agentLicenceNo,
    commissionRate: s.commissionRate,
    commissionRateText: microPercentText(s.commissionRate),
    businessSource: s.businessSource,
    businessSourceLabel: row.sourceLabel ?? sourceLabelFallback(s.businessSource),
    nbProjectName: s.nbProjectName,
    migrantWorkerCount: s.migrantWorkerCount,
    wageBank: s.wageBank,
    wageAccountNo: s.wageAccountNo,
    labourContractFilingNo: s.labourContractFilingNo,
    supervisingAuthority: s.supervisingAuthority,
    remark: s.remark,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    version: s.version,
  };
}

async function changesOf(db: Db | Tx, policyId: number): Promise<SalespersonChangeRow[]> {
  const rows = await db
    .select({
      c: salespersonChanges,
      actor: actorNameOf(salespersonChanges.actorId, salespersonChanges.actorName),
    })
    .from(salespersonChanges)
    .where(eq(salespersonChanges.policyId, policyId))
    .orderBy(desc(salespersonChanges.id));
  return rows.map(({ c, actor }) => ({
    id: c.id,
    oldName: c.oldName,
    oldNo: c.oldNo,
    newName: c.newName,
    newNo: c.newNo,
    reason: c.reason,
    actor,
    at: c.createdAt.toISOString(),
  }));
}

async function defaultsOf(db: Db | Tx, applicationId: number): Promise<PolicySales['defaults']> {
  const [row] = await db
    .select({
      commissionRate: applications.commissionRate,
      agentUserId: applications.agentId,
      agentName: sql<string | null>`coalesce(${users.nickName}, ${users.username})`,
    })
    .from(applications)
    .leftJoin(users, eq(users.id, applications.agentId))
    .where(eq(applications.id, applicationId));
  return {
    commissionRate: row?.commissionRate ?? null,
    agentUserId: row?.agentUserId ?? null,
    agentName: row?.agentUserId ? row.agentName : null,
  };
}

async function salesOf(db: Db | Tx, p: VisiblePolicy): Promise<PolicySales> {
  const status = policyStatusOn(p);
  const [supplement, changes, defaults] = await Promise.all([
    supplementOf(db, p.id),
    changesOf(db, p.id),
    defaultsOf(db, p.applicationId),
  ]);
  return {
    policy: {
      id: p.id,
      number: p.number,
      productId: p.productId,
      productName: p.productName,
      holderName: p.holderName,
      holderUscc: p.holderUscc,
      insuredName: p.insuredName,
      startDate: p.startDate,
      endDate: p.endDate,
      premiumFen: p.premiumFen,
      status,
      statusLabel: POLICY_STATUS_LABELS[status],
      issuedAt: p.issuedAt.toISOString(),
      commissionCap: p.commissionCap,
      commissionCapText: microPercentText(p.commissionCap),
    },
    supplement,
    defaults,
    changes,
  };
}

/** GET /api/policies/:id/sales. */
export async function getPolicySales(db: Db, viewer: CustomerViewer, policyId: number): Promise<PolicySales> {
  return salesOf(db, await visiblePolicy(db, viewer, policyId));
}

// ---- changes ----

type SupplementInput = z.infer<typeof supplementForm>;

/** The values of the business-source dictionary (the seeded list when the installation has none). */
async function businessSourceValues(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ value: dictDetails.value })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(eq(dicts.name, BUSINESS_SOURCE_DICT));
  return rows.length ? rows.map((r) => r.value) : BUSINESS_SOURCES.map(([v]) => v);
}

/** An agent named by user id must be an enabled user holding the agent role. */
async function agentUser(tx: Tx, id: number): Promise<{ id: number; name: string } | null> {
  const [row] = await tx
    .select({ id: users.id, name: sql<string>`coalesce(${users.nickName}, ${users.username})` })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.id, id), eq(roles.code, 'agent'), eq(users.enabled, true)))
    .limit(1);
  return row ?? null;
}

/** What the audit trail keeps of a supplement: the account number masked. */
const auditSnapshot = (s: Partial<Supplement>) => ({
  variant: s.variant,
  salespersonName: s.salespersonName,
  salespersonNo: s.salespersonNo,
  agentUserId: s.agentUserId,
  agentName: s.agentName,
  agentLicenceNo: s.agentLicenceNo,
  commissionRate: s.commissionRate,
  businessSource: s.businessSource,
  nbProjectName: s.nbProjectName,
  migrantWorkerCount: s.migrantWorkerCount,
  wageBank: s.wageBank,
  wageAccountNo: maskAccountNo(s.wageAccountNo),
  labourContractFilingNo: s.labourContractFilingNo,
  supervisingAuthority: s.supervisingAuthority,
  remark: s.remark,
});

const audit = entityAudit('sales_supplement');

/**
 * PUT /api/policies/:id/sales: creates the supplement (version null) or updates it (the version as loaded; 409
 * when stale). Checks the commission against the product's cap, the business source against its dictionary,
 * a named agent user; the NBNMG fields are required for that variant and cleared for the standard one.
 */
export async function saveSupplement(
  db: Db,
  actor: SalesActor,
  policyId: number,
  form: SupplementInput,
): Promise<PolicySales> {
  try {
    await db.transaction(async (tx) => {
      const p = await visiblePolicy(tx, actor.viewer, policyId, true);
      if (form.commissionRate > p.commissionCap)
        throw problemError(commissionCapProblem(microPercentText(p.commissionCap)));
      if (!(await businessSourceValues(tx)).includes(form.businessSource))
        throw fieldError('businessSource', `字典中没有代码 ${form.businessSource}`, '业务来源');
      let agentName = form.agentName ?? null;
      if (form.agentUserId) {
        const agent = await agentUser(tx, form.agentUserId);
        if (!agent) throw fieldError('agentUserId', '用户不存在或不是代理人', '代理人');
        agentName ??= agent.name;
      }
      const nb = form.variant === 'NBNMG';
      const values = {
        variant: form.variant,
        salespersonName: form.salespersonName,
        salespersonNo: form.salespersonNo,
        agentUserId: form.agentUserId ?? null,
        agentName,
        agentLicenceNo: form.agentLicenceNo ?? null,
        commissionRate: form.commissionRate,
        businessSource: form.businessSource,
        ...Object.fromEntries(NBNMG_FIELDS.map((k) => [k, nb ? (form[k] ?? null) : null])),
        remark: form.remark ?? null,
      } as Omit<typeof salesSupplements.$inferInsert, 'policyId'>;
      const [existing] = await tx
        .select()
        .from(salesSupplements)
        .where(eq(salesSupplements.policyId, policyId))
        .for('update');
      if (!existing) {
        if (form.version !== null) throw conflict(STALE_VERSION);
        await tx.insert(salesSupplements).values({
          ...values,
          policyId,
          createdBy: actor.user.id,
          updatedBy: actor.user.id,
        });
        await audit(tx, actor, 'create', policyId, { policyNumber: p.number, after: auditSnapshot(values) });
        return;
      }
      if (form.version === null) throw conflict(SUPPLEMENT_EXISTS);
      if (existing.version !== form.version) throw conflict(STALE_VERSION);
      await tx
        .update(salesSupplements)
        .set({
          ...values,
          updatedBy: actor.user.id,
          version: sql`${salesSupplements.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(salesSupplements.id, existing.id));
      await audit(tx, actor, 'update', policyId, {
        policyNumber: p.number,
        ...diff(auditSnapshot(existing), auditSnapshot({ ...existing, ...values })),
      });
    });
  } catch (err) {
    // Two first saves at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw conflict(SUPPLEMENT_EXISTS);
    throw err;
  }
  return getPolicySales(db, actor.viewer, policyId);
}

/**
 * POST /api/policies/:id/sales/salesperson (updateSale): a new salesperson with a reason; the change (old → new,
 * who, when, why) is kept in salesperson_change and the audit trail. 409 without a supplement or when stale;
 * 400 when nothing changes.
 */
export async function changeSalesperson(
  db: Db,
  actor: SalesActor,
  policyId: number,
  form: z.infer<typeof salespersonChangeForm>,
): Promise<PolicySales> {
  await db.transaction(async (tx) => {
    const p = await visiblePolicy(tx, actor.viewer, policyId, true);
    const [s] = await tx
      .select()
      .from(salesSupplements)
      .where(eq(salesSupplements.policyId, policyId))
      .for('update');
    if (!s) throw conflict(SUPPLEMENT_NOT_FOUND);
    if (s.version !== form.version) throw conflict(STALE_VERSION);
    if (s.salespersonName === form.salespersonName && s.salespersonNo === form.salespersonNo)
      throw badRequest(SAME_SALESPERSON);
    await tx
      .update(salesSupplements)
      .set({
        salespersonName: form.salespersonName,
        salespersonNo: form.salespersonNo,
        updatedBy: actor.user.id,
        version: sql`${salesSupplements.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(salesSupplements.id, s.id));
    await tx.insert(salespersonChanges).values({
      supplementId: s.id,
      policyId,
      oldName: s.salespersonName,
      oldNo: s.salespersonNo,
      newName: form.salespersonName,
      newNo: form.salespersonNo,
      reason: form.reason,
      actorId: actor.user.id,
      actorName: actor.user.username,
    });
    await audit(tx, actor, 'change_salesperson', policyId, {
      policyNumber: p.number,
      before: { salespersonName: s.salespersonName, salespersonNo: s.salespersonNo },
      after: { salespersonName: form.salespersonName, salespersonNo: form.salespersonNo },
      reason: form.reason,
    });
  });
  return getPolicySales(db, actor.viewer, policyId);
}

// Service organisations (风控服务机构): list, read, create, update, delete, and reading masked phones (audited).
// Their persons / experts: persons.ts; the accounts acting for an organisation: org-members.ts.
//
// Insurer staff manage every organisation; an organisation's own accounts see and edit only their own record
// (not its code or enabled flag) and manage their own persons. Phones are masked whenever read; a masked phone
// sent back keeps the stored number. Every change is audited; `version` answers 409 when stale.

import { maskPhone } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import type {
  SERVICE_ORG_SORT_FIELDS,
  ServiceOrgRow,
  serviceOrgCreateForm,
  serviceOrgUpdateForm,
} from '@piibs/shared/risk-control';
import { and, eq, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  dictDetails,
  dicts,
  preventionPlanItems,
  serviceOrders,
  serviceOrgMembers,
  serviceOrgs,
  servicePersons,
} from '../../db/schema.ts';
import { auditAction, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { type PreventionViewer, requireInsurer } from './access.ts';

export const ORG_NOT_FOUND = '服务机构不存在';

export const ORG_CODE_TAKEN = '统一社会信用代码已存在：该服务机构已登记';

type Qualification = {
  name: string;
  certNo: string;
  level: string | null;
  validFrom: string;
  validTo: string;
};
type Contact = { name: string; phone: string; position: string | null };
type OrgRecord = typeof serviceOrgs.$inferSelect;

// ---- visibility ----

/** The organisations the caller may see: staff all, an organisation's accounts their own, others none. */
export function orgsVisibleTo(v: PreventionViewer): SQL | undefined {
  if (v.insurer) return undefined;
  if (v.orgId != null) return eq(serviceOrgs.id, v.orgId);
  return sql`false`;
}

/** One organisation the caller may see (404 otherwise). */
export async function visibleOrg(
  db: Db | Tx,
  v: PreventionViewer,
  id: number,
  lock = false,
): Promise<OrgRecord> {
  const q = db
    .select()
    .from(serviceOrgs)
    .where(and(eq(serviceOrgs.id, id), orgsVisibleTo(v)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound(ORG_NOT_FOUND);
  return row;
}

// ---- dictionary labels and checks ----

interface Labels {
  region: Map<string, string>;
  industry: Map<string, string>;
}

async function labelsOf(db: Db | Tx, regions: string[], industries: string[]): Promise<Labels> {
  const out: Labels = { region: new Map(), industry: new Map() };
  const codes = [...new Set([...regions, ...industries])];
  if (codes.length === 0) return out;
  const rows = await db
    .select({ dict: dicts.name, value: dictDetails.value, label: dictDetails.label })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(
      and(
        inArray(dictDetails.value, codes),
        or(like(dicts.name, 'region\\_%'), eq(dicts.name, 'industry_section')),
      ),
    );
  for (const r of rows) {
    if (r.dict === 'industry_section') out.industry.set(r.value, r.label);
    else if (!out.region.has(r.value)) out.region.set(r.value, r.label);
  }
  return out;
}

async function checkOrgCodes(db: Db | Tx, regions: string[], industries: string[]): Promise<void> {
  const labels = await labelsOf(db, regions, industries);
  const badRegion = regions.find((r) => !labels.region.has(r));
  if (badRegion) throw fieldError('regions', `字典中没有代码 ${badRegion}`, '服务地区');
  const badIndustry = industries.find((i) => !labels.industry.has(i));
  if (badIndustry) throw fieldError('industries', `字典中没有代码 ${badIndustry}`, '服务行业');
}

/** True when an organisation serving `regions` covers a region code (a province or city covers what is in it). */
export function servesRegion(regions: string[], region: string): boolean {
  return regions.some(
    (r) =>
      r === region ||
      (r.endsWith('0000') && region.startsWith(r.slice(0, 2))) ||
      (r.endsWith('00') && region.startsWith(r.slice(0, 4))),
  );
}

/** A qualification valid on a day. */
export const qualificationValidOn = (q: Qualification, day: string) => q.validFrom <= day && day <= q.validTo;
/** At least one qualification of the organisation is valid on the day. */
export const orgQualifiedOn = (org: { qualifications: unknown }, day: string) =>
  (org.qualifications as Qualification[]).some((q) => qualificationValidOn(q, day));

// ---- organisations: reading ----

const orgColumns = {
  org: serviceOrgs,
  personCount: sql<number>`(select count(*)::int from service_person p where p.org_id = "service_org"."id")`,
  memberCount: sql<number>`(select count(*)::int from service_org_member m where m.org_id = "service_org"."id")`,
};
type OrgRaw = { org: OrgRecord; personCount: number; memberCount: number };

const uniqueList = <T>(rows: T[][]) => [...new Set(rows.flat())];

async function toOrgRows(db: Db | Tx, raws: OrgRaw[]): Promise<ServiceOrgRow[]> {
  const labels = await labelsOf(
    db,
    uniqueList(raws.map((r) => r.org.regions as string[])),
    uniqueList(raws.map((r) => r.org.industries as string[])),
  );
  const today = shanghaiToday();
  return raws.map(({ org: o, personCount, memberCount }) => {
    const qualifications = (o.qualifications as Qualification[]).map((q) => ({
      ...q,
      level: q.level ?? null,
      valid: qualificationValidOn(q, today),
    }));
    const regions = o.regions as string[];
    const industries = o.industries as string[];
    return {
      id: o.id,
      code: o.code,
      name: o.name,
      address: o.address,
      qualifications,
      qualified: qualifications.some((q) => q.valid),
      regions,
      regionNames: regions.map((r) => labels.region.get(r) ?? r),
      industries,
      industryNames: industries.map((i) => labels.industry.get(i) ?? i),
      contacts: (o.contacts as Contact[]).map((c) => ({
        name: c.name,
        phone: maskPhone(c.phone) ?? '',
        position: c.position ?? null,
      })),
      enabled: o.enabled,
      note: o.note,
      personCount: Number(personCount),
      memberCount: Number(memberCount),
      version: o.version,
      createdAt: o.createdAt.toISOString(),
      updatedAt: o.updatedAt.toISOString(),
    };
  });
}

export interface OrgFilter {
  blurry?: string | undefined;
  enabled?: boolean | undefined;
  region?: string | undefined;
  industry?: string | undefined;
}

type OrgSortField = (typeof SERVICE_ORG_SORT_FIELDS)[number];
const orgSort: SortColumns<OrgSortField> = {
  id: serviceOrgs.id,
  name: serviceOrgs.name,
  code: serviceOrgs.code,
  createdAt: serviceOrgs.createdAt,
  updatedAt: serviceOrgs.updatedAt,
};

export function orgListSpec(
  db: Db,
  v: PreventionViewer,
  f: OrgFilter,
): ListSpec<OrgSortField, ServiceOrgRow> {
  const where = and(
    orgsVisibleTo(v),
    blurry(f.blurry, serviceOrgs.name, serviceOrgs.code),
    f.enabled === undefined ? undefined : eq(serviceOrgs.enabled, f.enabled),
    f.region ? sql`${serviceOrgs.regions} @> ${JSON.stringify([f.region])}::jsonb` : undefined,
    f.industry ? sql`${serviceOrgs.industries} @> ${JSON.stringify([f.industry])}::jsonb` : undefined,
  );
  return {
    columns: orgSort,
    defaultOrder: [sql`${serviceOrgs.id} desc`],
    fetch: async (q) => toOrgRows(db, await pageRows(db, db.select(orgColumns).from(serviceOrgs), where, q)),
    count: () => countRows(db, serviceOrgs, where),
  };
}

export async function getOrg(db: Db | Tx, v: PreventionViewer, id: number): Promise<ServiceOrgRow> {
  const raws = await db
    .select(orgColumns)
    .from(serviceOrgs)
    .where(and(eq(serviceOrgs.id, id), orgsVisibleTo(v)));
  if (raws.length === 0) throw notFound(ORG_NOT_FOUND);
  return (await toOrgRows(db, raws))[0]!;
}

// ---- organisations: changes ----

/** Snapshot for the audit trail: phones masked. */
const orgSnapshot = (o: Omit<OrgRecord, 'id' | 'createdAt' | 'updatedAt' | 'createdBy' | 'version'>) => ({
  code: o.code,
  name: o.name,
  address: o.address,
  qualifications: o.qualifications,
  regions: o.regions,
  industries: o.industries,
  contacts: (o.contacts as Contact[]).map((c) => ({ ...c, phone: maskPhone(c.phone) })),
  enabled: o.enabled,
  note: o.note,
});

/** The contacts to store: a masked phone (as listed) keeps the stored number of the contact it masks. */
function resolveContacts(
  incoming: { name: string; phone: string; position?: string | null | undefined }[],
  stored: Contact[],
): Contact[] {
  return incoming.map((c, i) => {
    let phone = c.phone;
    if (phone.includes('*')) {
      const match = stored.find((s) => maskPhone(s.phone) === phone);
      if (!match)
        throw fieldError(`contacts.${i}.phone`, '请输入完整的电话号码', `联系人第 ${i + 1} 行联系电话`);
      phone = match.phone;
    }
    return { name: c.name, phone, position: c.position ?? null };
  });
}

type OrgCreate = z.output<typeof serviceOrgCreateForm>;
type OrgUpdate = z.output<typeof serviceOrgUpdateForm>;

function orgValues(form: OrgCreate, contacts: Contact[]) {
  return {
    code: form.code,
    name: form.name,
    address: form.address ?? null,
    qualifications: form.qualifications.map((q) => ({
      name: q.name,
      certNo: q.certNo,
      level: q.level ?? null,
      validFrom: q.validFrom,
      validTo: q.validTo,
    })),
    regions: [...new Set(form.regions)],
    industries: [...new Set(form.industries)],
    contacts,
    enabled: form.enabled,
    note: form.note ?? null,
  };
}

/** POST /api/service-orgs (insurer staff). */
export async function createOrg(db: Db, v: PreventionViewer, form: OrgCreate): Promise<ServiceOrgRow> {
  requireInsurer(v);
  const values = orgValues(form, resolveContacts(form.contacts, []));
  await checkOrgCodes(db, values.regions, values.industries);
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(serviceOrgs)
        .values({ ...values, createdBy: v.user.id })
        .returning({ id: serviceOrgs.id });
      await auditChange(tx, v, {
        action: 'create',
        entity: 'service_org',
        entityId: row!.id,
        after: orgSnapshot(values),
      });
      return row!.id;
    });
    return getOrg(db, v, id);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ORG_CODE_TAKEN);
    throw err;
  }
}

/** POST /api/service-orgs/update: staff any; an organisation's account its own (not code nor enabled). */
export async function updateOrg(db: Db, v: PreventionViewer, form: OrgUpdate): Promise<ServiceOrgRow> {
  try {
    await db.transaction(async (tx) => {
      const before = await visibleOrg(tx, v, form.id, true);
      if (!v.insurer && (form.code !== before.code || form.enabled !== before.enabled))
        throw forbidden('只有保险公司人员可以修改机构代码或启用状态');
      if (before.version !== form.version) throw conflict(STALE_VERSION);
      const values = orgValues(form, resolveContacts(form.contacts, before.contacts as Contact[]));
      await checkOrgCodes(tx, values.regions, values.industries);
      await tx
        .update(serviceOrgs)
        .set({ ...values, version: sql`${serviceOrgs.version} + 1`, updatedAt: sql`now()` })
        .where(eq(serviceOrgs.id, form.id));
      await auditChange(tx, v, {
        action: 'update',
        entity: 'service_org',
        entityId: form.id,
        before: orgSnapshot(before),
        after: orgSnapshot(values),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ORG_CODE_TAKEN);
    throw err;
  }
  return getOrg(db, v, form.id);
}

/** POST /api/service-orgs/delete (staff): only organisations never planned or dispatched; else disable them. */
export async function deleteOrgs(db: Db, v: PreventionViewer, ids: number[]): Promise<{ deleted: number }> {
  requireInsurer(v);
  return db.transaction(async (tx) => {
    let deleted = 0;
    for (const id of [...new Set(ids)]) {
      const org = await visibleOrg(tx, v, id, true);
      const [used] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(preventionPlanItems)
        .where(eq(preventionPlanItems.orgId, id));
      const [ordered] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(serviceOrders)
        .where(eq(serviceOrders.orgId, id));
      if ((used?.n ?? 0) > 0 || (ordered?.n ?? 0) > 0)
        throw conflict(`服务机构「${org.name}」已有服务计划或服务单，不能删除，请改为停用`);
      await tx.delete(servicePersons).where(eq(servicePersons.orgId, id));
      await tx.delete(serviceOrgMembers).where(eq(serviceOrgMembers.orgId, id));
      await tx.delete(serviceOrgs).where(eq(serviceOrgs.id, id));
      await auditChange(tx, v, {
        action: 'delete',
        entity: 'service_org',
        entityId: id,
        before: orgSnapshot(org),
      });
      deleted++;
    }
    return { deleted };
  });
}

/** POST /api/service-orgs/:id/unmask: the contacts' full phones (audited). */
export async function unmaskOrg(db: Db, v: PreventionViewer, id: number): Promise<{ contacts: Contact[] }> {
  const org = await visibleOrg(db, v, id);
  await auditAction(db, v, {
    action: 'unmask',
    entity: 'service_org',
    entityId: id,
    detail: { field: 'contacts.phone' },
  });
  return { contacts: (org.contacts as Contact[]).map((c) => ({ ...c, position: c.position ?? null })) };
}

// Service organisations (风控服务机构) and their persons / experts: list, read, create, update, delete, the
// accounts acting for an organisation, and reading masked phones (audited).
//
// Insurer staff manage every organisation; an organisation's own accounts see and edit only their own record
// (not its code or enabled flag) and manage their own persons. Phones are masked whenever read; a masked phone
// sent back keeps the stored number. Every change is audited; `version` answers 409 when stale.
import { maskPhone, ROLE_CODES } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import type {
  OrgMemberRow,
  SERVICE_ORG_SORT_FIELDS,
  SERVICE_PERSON_SORT_FIELDS,
  ServiceOrgRow,
  ServicePersonRow,
  serviceOrgCreateForm,
  serviceOrgUpdateForm,
  servicePersonCreateForm,
  servicePersonUpdateForm,
} from '@piibs/shared/risk-control';
import { and, count, eq, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  dictDetails,
  dicts,
  preventionPlanItems,
  roles,
  serviceOrders,
  serviceOrgMembers,
  serviceOrgs,
  servicePersons,
  userRoles,
  users,
} from '../../db/schema.ts';
import { auditAction, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { blurry, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { type PreventionViewer, requireInsurer } from './access.ts';

export const ORG_NOT_FOUND = '服务机构不存在';
export const PERSON_NOT_FOUND = '服务人员不存在';
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

function personsVisibleTo(v: PreventionViewer): SQL | undefined {
  if (v.insurer) return undefined;
  if (v.orgId != null) return eq(servicePersons.orgId, v.orgId);
  return sql`false`;
}

/** One organisation the caller may see (404 otherwise). */
async function visibleOrg(db: Db | Tx, v: PreventionViewer, id: number, lock = false): Promise<OrgRecord> {
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
  if (badRegion) throw badRequest(`服务地区：字典中没有代码 ${badRegion}`);
  const badIndustry = industries.find((i) => !labels.industry.has(i));
  if (badIndustry) throw badRequest(`服务行业：字典中没有代码 ${badIndustry}`);
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
    fetch: async ({ limit, offset, orderBy }) =>
      toOrgRows(
        db,
        await db
          .select(orgColumns)
          .from(serviceOrgs)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      ),
    count: async () => (await db.select({ n: count() }).from(serviceOrgs).where(where))[0]?.n ?? 0,
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
      if (!match) throw badRequest(`联系人第 ${i + 1} 行联系电话：请输入完整的电话号码`);
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

// ---- the accounts acting for an organisation ----

export async function orgMembers(db: Db, v: PreventionViewer, id: number): Promise<OrgMemberRow[]> {
  await visibleOrg(db, v, id);
  return db
    .select({ userId: users.id, username: users.username, nickName: users.nickName, enabled: users.enabled })
    .from(serviceOrgMembers)
    .innerJoin(users, eq(users.id, serviceOrgMembers.userId))
    .where(eq(serviceOrgMembers.orgId, id))
    .orderBy(users.id);
}

/** How many candidates one search answers (type more of the name to narrow it). */
export const MEMBER_CANDIDATE_LIMIT = 50;

/**
 * GET /api/service-orgs/:id/member-candidates (staff): the accounts that may be linked to the organisation —
 * holding the 'service' role and linked to no other organisation (its own members included, so a picker can
 * show them) — whose username or nickname contains `keyword`. Names and the enabled flag only.
 */
export async function orgMemberCandidates(
  db: Db,
  v: PreventionViewer,
  id: number,
  keyword?: string,
): Promise<OrgMemberRow[]> {
  await visibleOrg(db, v, id);
  requireInsurer(v);
  return db
    .selectDistinct({
      userId: users.id,
      username: users.username,
      nickName: users.nickName,
      enabled: users.enabled,
    })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(serviceOrgMembers, eq(serviceOrgMembers.userId, users.id))
    .where(
      and(
        eq(roles.code, ROLE_CODES.service),
        or(isNull(serviceOrgMembers.orgId), eq(serviceOrgMembers.orgId, id)),
        blurry(keyword?.trim(), users.username, users.nickName),
      ),
    )
    .orderBy(users.username, users.id)
    .limit(MEMBER_CANDIDATE_LIMIT);
}

/** POST /api/service-orgs/:id/members (staff): replaces the accounts; each must hold the 'service' role. */
export async function setOrgMembers(
  db: Db,
  v: PreventionViewer,
  id: number,
  userIds: number[],
): Promise<OrgMemberRow[]> {
  requireInsurer(v);
  const wanted = [...new Set(userIds)];
  await db.transaction(async (tx) => {
    await visibleOrg(tx, v, id, true);
    const before = (
      await tx
        .select({ userId: serviceOrgMembers.userId })
        .from(serviceOrgMembers)
        .where(eq(serviceOrgMembers.orgId, id))
    ).map((r) => r.userId);
    if (wanted.length) {
      const found = await tx
        .select({ id: users.id, username: users.username })
        .from(users)
        .innerJoin(userRoles, eq(userRoles.userId, users.id))
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(inArray(users.id, wanted), eq(roles.code, ROLE_CODES.service)));
      const ok = new Set(found.map((f) => f.id));
      const bad = wanted.find((u) => !ok.has(u));
      if (bad !== undefined) throw badRequest(`机构账号：用户 ${bad} 不存在或不是风控服务机构账号`);
      const [elsewhere] = await tx
        .select({ username: users.username, orgName: serviceOrgs.name })
        .from(serviceOrgMembers)
        .innerJoin(users, eq(users.id, serviceOrgMembers.userId))
        .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrgMembers.orgId))
        .where(and(inArray(serviceOrgMembers.userId, wanted), sql`${serviceOrgMembers.orgId} <> ${id}`))
        .orderBy(users.username)
        .limit(1);
      if (elsewhere)
        throw conflict(
          `机构账号：账号 ${elsewhere.username} 已属于其他服务机构「${elsewhere.orgName}」，请先从该机构移除`,
        );
    }
    await tx.delete(serviceOrgMembers).where(eq(serviceOrgMembers.orgId, id));
    if (wanted.length)
      await tx.insert(serviceOrgMembers).values(wanted.map((userId) => ({ userId, orgId: id })));
    await auditChange(tx, v, {
      action: 'members',
      entity: 'service_org',
      entityId: id,
      before: { userIds: before },
      after: { userIds: wanted },
    });
  });
  return orgMembers(db, v, id);
}

// ---- persons ----

type PersonRecord = typeof servicePersons.$inferSelect;

const personColumns = { person: servicePersons, orgName: serviceOrgs.name };

function toPersonRow(
  r: { person: PersonRecord; orgName: string },
  today = shanghaiToday(),
): ServicePersonRow {
  const p = r.person;
  return {
    id: p.id,
    orgId: p.orgId,
    orgName: r.orgName,
    name: p.name,
    specialty: p.specialty,
    title: p.title,
    expert: p.expert,
    certificateName: p.certificateName,
    certificateNo: p.certificateNo,
    certificateValidFrom: p.certificateValidFrom,
    certificateValidTo: p.certificateValidTo,
    certificateValid: p.certificateValidFrom <= today && today <= p.certificateValidTo,
    phone: maskPhone(p.phone) ?? '',
    enabled: p.enabled,
    note: p.note,
    version: p.version,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export interface PersonFilter {
  orgId?: number | undefined;
  blurry?: string | undefined;
  expert?: boolean | undefined;
  enabled?: boolean | undefined;
}

type PersonSortField = (typeof SERVICE_PERSON_SORT_FIELDS)[number];
const personSort: SortColumns<PersonSortField> = {
  id: servicePersons.id,
  name: servicePersons.name,
  certificateValidTo: servicePersons.certificateValidTo,
  createdAt: servicePersons.createdAt,
};

export function personListSpec(
  db: Db,
  v: PreventionViewer,
  f: PersonFilter,
): ListSpec<PersonSortField, ServicePersonRow> {
  const where = and(
    personsVisibleTo(v),
    f.orgId ? eq(servicePersons.orgId, f.orgId) : undefined,
    blurry(f.blurry, servicePersons.name, servicePersons.specialty, servicePersons.certificateNo),
    f.expert === undefined ? undefined : eq(servicePersons.expert, f.expert),
    f.enabled === undefined ? undefined : eq(servicePersons.enabled, f.enabled),
  );
  return {
    columns: personSort,
    defaultOrder: [sql`${servicePersons.id} desc`],
    fetch: async ({ limit, offset, orderBy }) => {
      const today = shanghaiToday();
      return (
        await db
          .select(personColumns)
          .from(servicePersons)
          .innerJoin(serviceOrgs, eq(serviceOrgs.id, servicePersons.orgId))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map((r) => toPersonRow(r, today));
    },
    count: async () => (await db.select({ n: count() }).from(servicePersons).where(where))[0]?.n ?? 0,
  };
}

async function visiblePerson(db: Db | Tx, v: PreventionViewer, id: number, lock = false) {
  const q = db
    .select(personColumns)
    .from(servicePersons)
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, servicePersons.orgId))
    .where(and(eq(servicePersons.id, id), personsVisibleTo(v)));
  const [row] = lock ? await q.for('update', { of: servicePersons }) : await q;
  if (!row) throw notFound(PERSON_NOT_FOUND);
  return row;
}

export async function getPerson(db: Db | Tx, v: PreventionViewer, id: number): Promise<ServicePersonRow> {
  return toPersonRow(await visiblePerson(db, v, id));
}

const personSnapshot = (
  p: Omit<PersonRecord, 'id' | 'createdAt' | 'updatedAt' | 'createdBy' | 'version'>,
) => ({
  orgId: p.orgId,
  name: p.name,
  specialty: p.specialty,
  title: p.title,
  expert: p.expert,
  certificateName: p.certificateName,
  certificateNo: p.certificateNo,
  certificateValidFrom: p.certificateValidFrom,
  certificateValidTo: p.certificateValidTo,
  phone: maskPhone(p.phone),
  enabled: p.enabled,
  note: p.note,
});

type PersonCreate = z.output<typeof servicePersonCreateForm>;
type PersonUpdate = z.output<typeof servicePersonUpdateForm>;

function personValues(form: PersonCreate, phone: string) {
  return {
    orgId: form.orgId,
    name: form.name,
    specialty: form.specialty,
    title: form.title ?? null,
    expert: form.expert,
    certificateName: form.certificateName,
    certificateNo: form.certificateNo,
    certificateValidFrom: form.certificateValidFrom,
    certificateValidTo: form.certificateValidTo,
    phone,
    enabled: form.enabled,
    note: form.note ?? null,
  };
}

/** The organisation a person is put in must be one the caller sees (and manages). */
async function orgForPerson(db: Db | Tx, v: PreventionViewer, orgId: number): Promise<void> {
  const [org] = await db
    .select({ id: serviceOrgs.id })
    .from(serviceOrgs)
    .where(and(eq(serviceOrgs.id, orgId), orgsVisibleTo(v)));
  if (!org) throw badRequest(`服务机构：${ORG_NOT_FOUND}`);
}

/** POST /api/service-persons: staff for any organisation, an organisation's account for its own. */
export async function createPerson(
  db: Db,
  v: PreventionViewer,
  form: PersonCreate,
): Promise<ServicePersonRow> {
  if (form.phone.includes('*')) throw badRequest('手机号：请输入完整的手机号码');
  const id = await db.transaction(async (tx) => {
    await orgForPerson(tx, v, form.orgId);
    const values = personValues(form, form.phone);
    const [row] = await tx
      .insert(servicePersons)
      .values({ ...values, createdBy: v.user.id })
      .returning({ id: servicePersons.id });
    await auditChange(tx, v, {
      action: 'create',
      entity: 'service_person',
      entityId: row!.id,
      after: personSnapshot(values),
    });
    return row!.id;
  });
  return getPerson(db, v, id);
}

/** POST /api/service-persons/update (`version` as loaded; the masked phone keeps the stored number). */
export async function updatePerson(
  db: Db,
  v: PreventionViewer,
  form: PersonUpdate,
): Promise<ServicePersonRow> {
  await db.transaction(async (tx) => {
    const { person: before } = await visiblePerson(tx, v, form.id, true);
    if (before.version !== form.version) throw conflict(STALE_VERSION);
    if (form.orgId !== before.orgId) await orgForPerson(tx, v, form.orgId);
    let phone = form.phone;
    if (phone.includes('*')) {
      if (phone !== maskPhone(before.phone)) throw badRequest('手机号：请输入完整的手机号码');
      phone = before.phone;
    }
    const values = personValues(form, phone);
    await tx
      .update(servicePersons)
      .set({ ...values, version: sql`${servicePersons.version} + 1`, updatedAt: sql`now()` })
      .where(eq(servicePersons.id, form.id));
    await auditChange(tx, v, {
      action: 'update',
      entity: 'service_person',
      entityId: form.id,
      before: personSnapshot(before),
      after: personSnapshot(values),
    });
  });
  return getPerson(db, v, form.id);
}

/** POST /api/service-persons/delete: only persons never planned or dispatched (else disable them). */
export async function deletePersons(
  db: Db,
  v: PreventionViewer,
  ids: number[],
): Promise<{ deleted: number }> {
  return db.transaction(async (tx) => {
    let deleted = 0;
    for (const id of [...new Set(ids)]) {
      const { person } = await visiblePerson(tx, v, id, true);
      const used = await tx.execute<{ n: number }>(sql`select
        (select count(*) from prevention_plan_item where person_ids @> ${JSON.stringify([id])}::jsonb)
        + (select count(*) from service_order where person_ids @> ${JSON.stringify([id])}::jsonb) as n`);
      if (Number(used.rows[0]?.n ?? 0) > 0)
        throw conflict(`服务人员「${person.name}」已参与服务计划或服务单，不能删除，请改为停用`);
      await tx.delete(servicePersons).where(eq(servicePersons.id, id));
      await auditChange(tx, v, {
        action: 'delete',
        entity: 'service_person',
        entityId: id,
        before: personSnapshot(person),
      });
      deleted++;
    }
    return { deleted };
  });
}

/** POST /api/service-persons/:id/unmask: the full phone (audited). */
export async function unmaskPerson(db: Db, v: PreventionViewer, id: number): Promise<{ phone: string }> {
  const { person } = await visiblePerson(db, v, id);
  await auditAction(db, v, {
    action: 'unmask',
    entity: 'service_person',
    entityId: id,
    detail: { field: 'phone' },
  });
  return { phone: person.phone };
}

/** Names of persons by id (for plan items and orders). */
export async function personNames(db: Db | Tx, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: servicePersons.id, name: servicePersons.name })
    .from(servicePersons)
    .where(inArray(servicePersons.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Checks persons for a service: each of the organisation, enabled, and (given a day) with a certificate valid
 * on that day. 400 naming the person otherwise.
 */
export async function checkPersons(
  db: Db | Tx,
  orgId: number,
  ids: number[],
  day: string | null,
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await db.select().from(servicePersons).where(inArray(servicePersons.id, unique));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of unique) {
    const p = byId.get(id);
    if (!p || p.orgId !== orgId) throw badRequest(`服务人员：${id} 不是该服务机构的人员`);
    if (!p.enabled) throw badRequest(`服务人员：${p.name} 已停用`);
    if (day && !(p.certificateValidFrom <= day && day <= p.certificateValidTo))
      throw badRequest(`服务人员：${p.name} 的资格证书在 ${day} 不在有效期内`);
  }
}

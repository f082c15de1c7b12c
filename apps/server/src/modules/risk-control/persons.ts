// The persons / experts of service organisations (风控服务人员): list, read, create, update, delete, reading a
// masked phone (audited), and the checks a service order makes of the persons it names. Insurer staff manage
// every person; an organisation's own accounts manage their own. Phones are masked whenever read.

import { maskPhone } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import type {
  SERVICE_PERSON_SORT_FIELDS,
  ServicePersonRow,
  servicePersonCreateForm,
  servicePersonUpdateForm,
} from '@piibs/shared/risk-control';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { serviceOrgs, servicePersons } from '../../db/schema.ts';
import { auditAction, auditChange } from '../../lib/audit.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import type { PreventionViewer } from './access.ts';
import { ORG_NOT_FOUND, orgsVisibleTo } from './orgs.ts';

export const PERSON_NOT_FOUND = '服务人员不存在';

function personsVisibleTo(v: PreventionViewer): SQL | undefined {
  if (v.insurer) return undefined;
  if (v.orgId != null) return eq(servicePersons.orgId, v.orgId);
  return sql`false`;
}

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
    fetch: async (q) => {
      const today = shanghaiToday();
      const query = db
        .select(personColumns)
        .from(servicePersons)
        .innerJoin(serviceOrgs, eq(serviceOrgs.id, servicePersons.orgId));
      return (await pageRows(db, query, where, q)).map((r) => toPersonRow(r, today));
    },
    count: () => countRows(db, servicePersons, where),
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
  if (!org) throw fieldError('orgId', ORG_NOT_FOUND, '服务机构');
}

/** POST /api/service-persons: staff for any organisation, an organisation's account for its own. */
export async function createPerson(
  db: Db,
  v: PreventionViewer,
  form: PersonCreate,
): Promise<ServicePersonRow> {
  if (form.phone.includes('*')) throw fieldError('phone', '请输入完整的手机号码', '手机号');
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
      if (phone !== maskPhone(before.phone)) throw fieldError('phone', '请输入完整的手机号码', '手机号');
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
    if (!p || p.orgId !== orgId) throw fieldError('personIds', `${id} 不是该服务机构的人员`, '服务人员');
    if (!p.enabled) throw fieldError('personIds', `${p.name} 已停用`, '服务人员');
    if (day && !(p.certificateValidFrom <= day && day <= p.certificateValidTo))
      throw fieldError('personIds', `${p.name} 的资格证书在 ${day} 不在有效期内`, '服务人员');
  }
}

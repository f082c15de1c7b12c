// Image materials (影像资料): list, upload, read and (soft) delete the scans of a business record.
//
// Who may do what — the record decides, through the rules its own module applies:
//   read    the read permission of the record's kind (application:list / customer:list; 403 without) and
//           the record visible to the caller (404 otherwise: agents their own clients, enterprises their own
//           enterprise, staff by data scope);
//   change  also the edit permission (application:edit / customer:edit; 403 without), and
//           application  its owner or its agent (403 otherwise), while DRAFT or RETURNED (409 otherwise):
//                        the materials are part of what the applicant submits, so they freeze while the
//                        underwriter reviews (PENDING_REVIEW) and from approval on, and open again when the
//                        application is returned for corrections — the same states as the draft itself;
//                        except that while PENDING_REVIEW the document types the underwriter asked for
//                        (requested_doc_types) stay open: those may be added and deleted, the rest stay frozen;
//           customer     anyone who may edit the customer; a rejected customer only by a reviewer (409);
//           service_order (photos of an on-site service; prevention:list / prevention:serve) only the order's
//                        organisation, while the service is IN_SERVICE (409 otherwise) — see
//                        risk-control/materials.ts.
// Changing a material does not touch the record's review status; every upload and delete is audited.
// Deleting keeps the bytes and the row (deleted_at): business records are kept at least 5 years.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  APPLICATION_STATUS_LABELS,
  type ApplicationStatus,
  EDITABLE_STATUSES,
} from '@piibs/shared/application-status';
import { auditRefKey } from '@piibs/shared/audit-text';
import {
  isImageMime,
  isMaterialBusinessType,
  MATERIAL_DOC_DICT,
  MATERIAL_EXTENSIONS,
  MATERIAL_MESSAGES,
  type MaterialBusinessType,
  type MaterialList,
  type MaterialListQuery,
  type MaterialMime,
  type MaterialRow,
  type MaterialUploadFields,
} from '@piibs/shared/material';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { applications, customers, materials, users } from '../../db/schema.ts';
import { type Actor, auditAction } from '../../lib/audit.ts';
import { auditNames } from '../../lib/audit-text.ts';
import { badRequest, conflict, forbidden, type HttpError, notFound } from '../../lib/errors.ts';
import { applicationsVisibleTo, isApplicationOwner } from '../applications/access.ts';
import { APPLICATION_NOT_FOUND, NOT_OWNER } from '../applications/changes.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { type CustomerViewer, customersVisibleTo } from '../customers/access.ts';
import { CUSTOMER_NOT_FOUND } from '../customers/service.ts';
import { dictLabel } from '../dicts/codes.ts';
import { serviceOrderMaterialAccess } from '../risk-control/materials.ts';
import { checkedMaterialMime } from './file-check.ts';
import { checkDocTypes } from './requirements.ts';
import { type MaterialStorage, newStorageKey } from './storage.ts';

export const MATERIAL_NOT_FOUND = '影像资料不存在';

/** The permission codes that guard each kind of record. */
export const MATERIAL_PERMISSIONS: Readonly<Record<MaterialBusinessType, { read: string; write: string }>> =
  Object.freeze({
    application: { read: 'application:list', write: 'application:edit' },
    customer: { read: 'customer:list', write: 'customer:edit' },
    service_order: { read: 'prevention:list', write: 'prevention:serve' },
  });
const CUSTOMER_REVIEW = 'customer:review';

/** The caller: who, from where, what they may see, and a permission check. */
export interface MaterialActor extends Actor {
  /** The signed-in user (the service-order rules need the whole session user). */
  user: RequestUser;
  viewer: CustomerViewer;
  can(code: string): Promise<boolean>;
}

// ---- access ----

/** What the caller may change of a record: everything (refusal null), or nothing but `openDocTypes`. */
interface Access {
  refusal: HttpError | null;
  /** With a refusal: the document types that stay open (what the underwriter asked for while reviewing). */
  openDocTypes: readonly string[];
}

const allOrNothing = (refusal: HttpError | null): Access => ({ refusal, openDocTypes: [] });

/** Why the caller may not change a material of type `docType` (null: they may). */
const refusalFor = (access: Access, docType: string): HttpError | null =>
  access.openDocTypes.includes(docType) ? null : access.refusal;

/**
 * Checks the caller may read the record (403 without the read permission, 404 when not visible) and answers
 * what they may change. `lock` takes a share lock on the record, so a change of its state (submission,
 * review) waits for the material change that checked it.
 */
async function recordAccess(
  db: Db | Tx,
  actor: MaterialActor,
  type: string,
  id: number,
  opts: { lock?: boolean; notFoundMessage?: string } = {},
): Promise<Access> {
  if (!isMaterialBusinessType(type)) throw notFound(opts.notFoundMessage ?? MATERIAL_NOT_FOUND);
  const perms = MATERIAL_PERMISSIONS[type];
  if (!(await actor.can(perms.read))) throw forbidden();
  if (type === 'service_order') return allOrNothing(await serviceOrderMaterialAccess(db, actor, id, opts));
  if (type === 'application') {
    const query = db
      .select({
        status: applications.status,
        ownerId: applications.ownerId,
        agentId: applications.agentId,
        requestedDocTypes: applications.requestedDocTypes,
      })
      .from(applications)
      .where(and(eq(applications.id, id), applicationsVisibleTo(db as Db, actor.viewer)));
    const [a] = opts.lock ? await query.for('share', { of: applications }) : await query;
    if (!a) throw notFound(opts.notFoundMessage ?? APPLICATION_NOT_FOUND);
    if (!(await actor.can(perms.write))) return allOrNothing(forbidden());
    if (!isApplicationOwner(a, actor.user.id)) return allOrNothing(forbidden(NOT_OWNER));
    if (EDITABLE_STATUSES.includes(a.status as ApplicationStatus)) return allOrNothing(null);
    return {
      refusal: conflict(
        `投保单当前状态为「${APPLICATION_STATUS_LABELS[a.status as ApplicationStatus] ?? a.status}」，不能修改影像资料`,
      ),
      openDocTypes: a.status === 'PENDING_REVIEW' ? a.requestedDocTypes : [],
    };
  }
  const query = db
    .select({ reviewStatus: customers.reviewStatus })
    .from(customers)
    .where(and(eq(customers.id, id), customersVisibleTo(db, actor.viewer)));
  const [c] = opts.lock ? await query.for('share', { of: customers }) : await query;
  if (!c) throw notFound(opts.notFoundMessage ?? CUSTOMER_NOT_FOUND);
  if (!(await actor.can(perms.write))) return allOrNothing(forbidden());
  if (c.reviewStatus === 'rejected' && !(await actor.can(CUSTOMER_REVIEW)))
    return allOrNothing(conflict('投保人已被拒绝，不能修改影像资料'));
  return allOrNothing(null);
}

// ---- reading ----

const rowColumns = {
  id: materials.id,
  businessType: materials.businessType,
  businessId: materials.businessId,
  docType: materials.docType,
  docTypeName: dictLabel(MATERIAL_DOC_DICT, materials.docType),
  originalName: materials.originalName,
  mime: materials.mime,
  sizeBytes: materials.sizeBytes,
  sha256: materials.sha256,
  uploadedBy: materials.uploadedBy,
  uploaderName: sql<string | null>`coalesce(${users.nickName}, ${users.username})`,
  createdAt: materials.createdAt,
};

const selectRows = (db: Db | Tx) =>
  db.select(rowColumns).from(materials).leftJoin(users, eq(users.id, materials.uploadedBy));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

function toRow(r: RawRow): MaterialRow {
  return {
    ...r,
    businessType: r.businessType as MaterialBusinessType,
    mime: r.mime as MaterialMime,
    createdAt: r.createdAt.toISOString(),
    fileUrl: `/api/materials/${r.id}/file`,
    thumbnailUrl: isImageMime(r.mime) ? `/api/materials/${r.id}/thumbnail` : null,
  };
}

/** The record's live materials, oldest first, and whether the caller may change them. */
export async function listMaterials(
  db: Db,
  actor: MaterialActor,
  q: MaterialListQuery,
): Promise<MaterialList> {
  const { refusal, openDocTypes } = await recordAccess(db, actor, q.businessType, q.businessId);
  const record = { kind: q.businessType, value: String(q.businessId) };
  const names = await auditNames(db, [record]);
  const rows = await selectRows(db)
    .where(
      and(
        eq(materials.businessType, q.businessType),
        eq(materials.businessId, q.businessId),
        isNull(materials.deletedAt),
      ),
    )
    .orderBy(asc(materials.id));
  return {
    // The record was found visible just now; its number is there.
    businessNumber: names[auditRefKey(record)] ?? '',
    content: rows.map(toRow),
    totalElements: rows.length,
    editable: refusal === null,
    readOnlyReason: refusal?.message ?? null,
    editableDocTypes: refusal ? [...openDocTypes] : [],
  };
}

type Material = typeof materials.$inferSelect;

/** A live material the caller may read (404 otherwise, also when its record is not visible to them). */
async function readableMaterial(db: Db, actor: MaterialActor, id: number): Promise<Material> {
  const [m] = await db
    .select()
    .from(materials)
    .where(and(eq(materials.id, id), isNull(materials.deletedAt)));
  if (!m) throw notFound(MATERIAL_NOT_FOUND);
  await recordAccess(db, actor, m.businessType, m.businessId, { notFoundMessage: MATERIAL_NOT_FOUND });
  return m;
}

/** The bytes of a material the caller may read, with what the answer's headers need. */
export async function openMaterial(
  db: Db,
  storage: MaterialStorage,
  actor: MaterialActor,
  id: number,
): Promise<{ mime: MaterialMime; sizeBytes: number; sha256: string; stream: Readable }> {
  const m = await readableMaterial(db, actor, id);
  const stream = await storage.get(m.storageKey);
  if (!stream) throw notFound('影像资料文件已丢失，请重新上传');
  return { mime: m.mime as MaterialMime, sizeBytes: m.sizeBytes, sha256: m.sha256, stream };
}

// ---- changes ----

export interface UploadedFile {
  /** The client's file name, already cleaned (kept for display only, never used on disk). */
  name: string;
  bytes: Buffer;
}

/** Checks, stores and records one file; nothing is stored when a check fails. */
export async function uploadMaterial(
  db: Db,
  storage: MaterialStorage,
  actor: MaterialActor,
  fields: MaterialUploadFields,
  file: UploadedFile,
): Promise<MaterialRow> {
  const refusal = refusalFor(
    await recordAccess(db, actor, fields.businessType, fields.businessId),
    fields.docType,
  );
  if (refusal) throw refusal;
  await checkDocTypes(db, [fields.docType], 'docType', '资料类型');
  if (file.bytes.length === 0) throw badRequest(MATERIAL_MESSAGES.empty);
  const mime = checkedMaterialMime(file.bytes);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const key = newStorageKey(MATERIAL_EXTENSIONS[mime]);
  await storage.put(key, file.bytes);
  try {
    return await db.transaction(async (tx) => {
      const again = refusalFor(
        await recordAccess(tx, actor, fields.businessType, fields.businessId, { lock: true }),
        fields.docType,
      );
      if (again) throw again;
      const [row] = await tx
        .insert(materials)
        .values({
          businessType: fields.businessType,
          businessId: fields.businessId,
          docType: fields.docType,
          originalName: file.name,
          storageKey: key,
          mime,
          sizeBytes: file.bytes.length,
          sha256,
          uploadedBy: actor.user.id,
        })
        .returning({ id: materials.id });
      const id = row!.id;
      await auditAction(tx, actor, {
        action: 'upload',
        entity: 'material',
        entityId: id,
        detail: {
          businessType: fields.businessType,
          businessId: fields.businessId,
          docType: fields.docType,
          originalName: file.name,
          mime,
          sizeBytes: file.bytes.length,
          sha256,
        },
      });
      const [created] = await selectRows(tx).where(eq(materials.id, id));
      return toRow(created!);
    });
  } catch (err) {
    await storage.delete(key).catch(() => {});
    throw err;
  }
}

/** Soft-deletes a material while its record is editable by the caller. */
export async function deleteMaterial(db: Db, actor: MaterialActor, id: number): Promise<void> {
  const m = await readableMaterial(db, actor, id);
  await db.transaction(async (tx) => {
    const refusal = refusalFor(
      await recordAccess(tx, actor, m.businessType, m.businessId, {
        lock: true,
        notFoundMessage: MATERIAL_NOT_FOUND,
      }),
      m.docType,
    );
    if (refusal) throw refusal;
    const done = await tx
      .update(materials)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(materials.id, id), isNull(materials.deletedAt)))
      .returning({ id: materials.id });
    if (done.length === 0) throw notFound(MATERIAL_NOT_FOUND);
    await auditAction(tx, actor, {
      action: 'delete',
      entity: 'material',
      entityId: id,
      detail: {
        businessType: m.businessType,
        businessId: m.businessId,
        docType: m.docType,
        originalName: m.originalName,
        sha256: m.sha256,
      },
    });
  });
}

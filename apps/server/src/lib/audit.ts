import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEntry {
  actorId?: number | null;
  actorName?: string | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** What changed. Never passwords, tokens or full ID numbers: mask or leave them out. */
  detail?: Record<string, unknown> | null;
  ip?: string | null;
}

/** Appends a row to the audit trail. Pass a transaction as `db` to make it part of the change it records. */
export async function writeAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId ?? null,
    actorName: entry.actorName ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    detail: entry.detail ?? null,
    ip: entry.ip ?? null,
  });
}

import { actorText } from '@piibs/shared/audit-text';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { auditLog, users } from '../db/schema.ts';

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

/**
 * Who did it, by name, for what staff read (the operation log, timelines, change histories): the account's 姓名
 * where it still exists, else the name recorded then (a login name); a system step reads 系统自动 and a payment
 * provider by its own name (actorText).
 */
export const actorNameOf = (actorId: AnyPgColumn, recorded: AnyPgColumn): SQL<string | null> =>
  sql<
    string | null
  >`coalesce((select nullif(${users.nickName}, '') from ${users} where ${users.id} = ${actorId}), ${recorded})`.mapWith(
    actorText,
  );

/** Who makes an administrative change, for the audit trail. */
export interface Actor {
  user: { id: number; username: string };
  ip: string;
}

/** The actor of a request. */
export const actorOf = (req: { user: { id: number; username: string }; ip: string }): Actor => ({
  user: req.user,
  ip: req.ip,
});

/** Records what an actor did to one entity: the actor's id, name and IP go with the entry. */
export async function auditAction(
  db: Pick<Db, 'insert'>,
  actor: Actor,
  entry: Omit<AuditEntry, 'actorId' | 'actorName' | 'ip'>,
): Promise<void> {
  await writeAudit(db, { ...entry, actorId: actor.user.id, actorName: actor.user.username, ip: actor.ip });
}

/**
 * The audit writer of one kind of entity, for the modules that record many actions on it:
 * `const audit = entityAudit('application')`, then `audit(tx, actor, 'submit', id, detail)`.
 */
export const entityAudit =
  (entity: string) =>
  (
    db: Pick<Db, 'insert'>,
    actor: Actor,
    action: string,
    entityId: string | number,
    detail: Record<string, unknown>,
  ): Promise<void> =>
    auditAction(db, actor, { action, entity, entityId, detail });

type Snapshot = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields that differ, as `{ before, after }` holding only those fields. */
export function diff(before: Snapshot, after: Snapshot): { before: Snapshot; after: Snapshot } {
  const b: Snapshot = {};
  const a: Snapshot = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (same(before[key], after[key])) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key] ?? null;
  }
  return { before: b, after: a };
}

/**
 * Records a create (no `before`), an update (only the changed fields of both) or a delete (no `after`).
 * Snapshots must already be safe: phones masked, no passwords or tokens.
 */
export async function auditChange(
  db: Pick<Db, 'insert'>,
  actor: Actor,
  change: { action: string; entity: string; entityId: string | number; before?: Snapshot; after?: Snapshot },
): Promise<void> {
  const detail =
    change.before && change.after
      ? diff(change.before, change.after)
      : { before: change.before ?? null, after: change.after ?? null };
  await auditAction(db, actor, {
    action: change.action,
    entity: change.entity,
    entityId: change.entityId,
    detail,
  });
}

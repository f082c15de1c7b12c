// What every change of an application (投保单) shares. Every change locks the application row, checks who may
// change it (owner or its agent, else 403), its state (409) and its version (409 when stale), and bumps the
// version; every transition writes application_event (the timeline) and the audit trail in the same
// transaction. Also the application and payment-order numbers.

import { APPLICATION_STATUS_LABELS, type ApplicationStatus } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationEvents,
  applicationNumberSeq,
  applications,
  paymentOrderNumberSeq,
} from '../../db/schema.ts';
import { type Actor, entityAudit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { numberPrefix } from '../products/service.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { applicationsVisibleTo, isApplicationOwner } from './access.ts';

export type Application = typeof applications.$inferSelect;

export const APPLICATION_NOT_FOUND = '投保单不存在';
export const CUSTOMER_NOT_APPROVED = '投保人尚未审核通过';
export const NOT_OWNER = '只有投保单的创建人（或其代理人）可以操作';
/** Payment orders expire 24 hours after approval. */
export const PAYMENT_TTL_MS = 24 * 60 * 60 * 1000;

/** The caller of a change: who, from where and what they may see. */
export interface ApplicationActor extends Actor {
  viewer: CustomerViewer;
}

/** A viewer that sees everything: for reads after the access check has been made. */
export const seeAll = (v: CustomerViewer): CustomerViewer => ({ ...v, staffScope: { all: true } });

// ---- helpers of the changes ----

/** Locks an application the viewer may see (404 otherwise). */
export async function lockApplication(tx: Tx, viewer: CustomerViewer, id: number): Promise<Application> {
  const [row] = await tx
    .select()
    .from(applications)
    .where(and(eq(applications.id, id), applicationsVisibleTo(tx as unknown as Db, viewer)))
    .for('update', { of: applications });
  if (!row) throw notFound(APPLICATION_NOT_FOUND);
  return row;
}

/** Owner (403), then state (409), then version (409). */
export function checkChange(
  a: Application,
  actor: ApplicationActor,
  allowed: boolean,
  version: number,
): void {
  if (!isApplicationOwner(a, actor.user.id)) throw forbidden(NOT_OWNER);
  if (!allowed)
    throw conflict(
      `投保单当前状态为「${APPLICATION_STATUS_LABELS[a.status as ApplicationStatus]}」，不能执行此操作`,
    );
  if (a.version !== version) throw conflict(STALE_VERSION);
}

export async function addEvent(
  tx: Tx,
  actor: Actor,
  e: { applicationId: number; action: string; from: string | null; to: string; opinion?: string | null },
): Promise<void> {
  await tx.insert(applicationEvents).values({
    applicationId: e.applicationId,
    action: e.action,
    fromStatus: e.from,
    toStatus: e.to,
    actorId: actor.user.id,
    actorName: actor.user.username,
    opinion: e.opinion ?? null,
  });
}

export const audit = entityAudit('application');

const year = () => formatTime(Date.now(), '{y}');

/** A new application's number: the product's prefix, the year and a serial (AZX2026000123). */
export async function nextApplicationNumber(tx: Tx, productCode: string): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('application_number_seq')::text as n`);
  void applicationNumberSeq;
  return `${numberPrefix(productCode, 'TB')}${year()}${res.rows[0]!.n.padStart(6, '0')}`;
}

/** A payment order's number: ZF, the date and a serial. */
export async function nextPaymentNumber(tx: Tx): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('payment_order_number_seq')::text as n`);
  void paymentOrderNumberSeq;
  return `ZF${formatTime(Date.now(), '{y}{m}{d}')}${res.rows[0]!.n.padStart(8, '0')}`;
}

// What the project-order files share: the messages, the caller of a change, and the numbering of annual and
// secondary orders.

import { formatTime } from '@piibs/shared/constants';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { secondaryOrders } from '../../db/schema.ts';
import type { Actor } from '../../lib/audit.ts';
import type { ProjectViewer } from './access.ts';

export type Declaration = typeof secondaryOrders.$inferSelect;

export const ORDER_NOT_FOUND = '年度订单不存在';
export const DECLARATION_NOT_FOUND = '二次下单申报不存在';
export const NOT_DECLARER = '只有该年度订单的施工企业（或其代理人）可以申报项目';
export const ORDER_CLOSED = '该年度订单已关闭，不能再申报项目或批改';
export const NOT_DECLARATION_OWNER = '只有申报人（或其代理人）可以修改该申报';

/** The caller of a change: who, from where and what they may see. */
export interface ProjectActor extends Actor {
  project: ProjectViewer;
}

export const iso = (d: Date | null) => d?.toISOString() ?? null;
export const num = (v: unknown) => Number(v ?? 0);

export const year = () => formatTime(Date.now(), '{y}');

export async function serial(tx: Tx, sequence: string): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval(${sequence}::regclass)::text as n`);
  return res.rows[0]!.n.padStart(6, '0');
}

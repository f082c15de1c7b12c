// Photos of an on-site service through image materials (business type 'service_order'). The materials module
// (materials/service.ts) calls this from its recordAccess for 'service_order', with
// { read: 'prevention:list', write: 'prevention:serve' } as its permissions.
import {
  RECORD_EDITABLE,
  SERVICE_ORDER_STATUS_LABELS,
  type ServiceOrderStatus,
} from '@piibs/shared/risk-control';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { serviceOrders } from '../../db/schema.ts';
import { conflict, forbidden, type HttpError, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { ONLY_ORG, ordersVisibleTo, preventionViewerFor } from './access.ts';
import { ORDER_NOT_FOUND } from './order-queries.ts';

/**
 * Who may read and change the photos of a service order: 404 unless the caller sees the order; answers why the
 * caller may not change them (null: they may) — only the order's organisation, with prevention:serve, while the
 * service is under way (IN_SERVICE). `lock` takes a share lock on the order so a submission waits for the upload.
 */
export async function serviceOrderMaterialAccess(
  db: Db | Tx,
  actor: { user: RequestUser; ip: string; can(code: string): Promise<boolean> },
  id: number,
  opts: { lock?: boolean; notFoundMessage?: string } = {},
): Promise<HttpError | null> {
  const v = await preventionViewerFor(db as Db, actor.user, actor.ip);
  const query = db
    .select({ status: serviceOrders.status, orgId: serviceOrders.orgId })
    .from(serviceOrders)
    .where(and(eq(serviceOrders.id, id), ordersVisibleTo(db, v)));
  const [o] = opts.lock ? await query.for('share', { of: serviceOrders }) : await query;
  if (!o) throw notFound(opts.notFoundMessage ?? ORDER_NOT_FOUND);
  if (!(await actor.can('prevention:serve'))) return forbidden();
  if (v.orgId == null || v.orgId !== o.orgId) return forbidden(ONLY_ORG);
  if (!RECORD_EDITABLE.includes(o.status as ServiceOrderStatus))
    return conflict(
      `服务单当前状态为「${SERVICE_ORDER_STATUS_LABELS[o.status as ServiceOrderStatus] ?? o.status}」，不能修改现场照片`,
    );
  return null;
}

// What follows a service order's visit (服务单): the on-site record with hazards and participants (the
// organisation, IN_SERVICE), rectification follow-up until the order closes, and the enterprise's satisfaction
// and complaints. The checks of every change are those of orders.ts (lock, party, state, version).

import { shanghaiToday } from '@piibs/shared/application-status';
import {
  COMPLAINABLE,
  complaintDeadline,
  type complaintForm,
  HAZARD_LEVEL_LABELS,
  type HazardLevel,
  RATEABLE,
  RECORD_EDITABLE,
  RECTIFIABLE,
  type rateForm,
  type rectifyForm,
  type ServiceOrderDetail,
  type ServiceOrderStatus,
  serviceDateProblem,
  type serviceRecordForm,
} from '@piibs/shared/risk-control';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { serviceComplaints, serviceHazards, serviceOrders } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { type PreventionViewer, sidesOnPolicy } from './access.ts';
import { COMPLAINT_NOT_FOUND, getOrder, HAZARD_NOT_FOUND } from './order-queries.ts';
import {
  addEvent,
  auditOrder,
  bump,
  closeIfRectified,
  lockOrder,
  notNow,
  policyPeriod,
  requireParty,
} from './orders.ts';

// ---- the on-site record (the organisation, IN_SERVICE) ----

/** POST /api/prevention/orders/:ref/record: replaces the service date, findings, hazards and participants. */
export async function saveRecord(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof serviceRecordForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'org');
    if (!RECORD_EDITABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '修改服务记录');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    const period = await policyPeriod(tx, o.policyId);
    const late = serviceDateProblem(form.serviceDate, period, shanghaiToday());
    if (late) throw fieldError('serviceDate', late, '服务日期');
    await tx.delete(serviceHazards).where(eq(serviceHazards.orderId, o.id));
    if (form.hazards.length)
      await tx.insert(serviceHazards).values(
        form.hazards.map((h, i) => ({
          orderId: o.id,
          seq: i + 1,
          description: h.description,
          location: h.location ?? null,
          level: h.level,
          measure: h.measure ?? null,
          deadline: h.deadline,
        })),
      );
    const participants = form.participants.map((p) => ({
      name: p.name,
      side: p.side,
      position: p.position ?? null,
    }));
    await tx
      .update(serviceOrders)
      .set({
        serviceDate: form.serviceDate,
        address: form.address ?? null,
        findings: form.findings,
        participants,
        ...bump,
      })
      .where(eq(serviceOrders.id, o.id));
    await auditOrder(tx, v, 'record', o.id, {
      number: o.number,
      serviceDate: form.serviceDate,
      hazards: form.hazards.map((h) => ({ level: h.level, deadline: h.deadline })),
      participants: participants.length,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

// ---- rectification (the organisation follows up after confirmation) ----

/** POST /api/prevention/orders/:ref/hazards/:hazardId/rectify: the last open hazard closes the order. */
export async function rectifyHazard(
  db: Db,
  v: PreventionViewer,
  ref: string,
  hazardId: number,
  form: z.output<typeof rectifyForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'org');
    if (!RECTIFIABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '登记隐患整改');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    const [h] = await tx
      .select()
      .from(serviceHazards)
      .where(and(eq(serviceHazards.id, hazardId), eq(serviceHazards.orderId, o.id)));
    if (!h) throw notFound(HAZARD_NOT_FOUND);
    if (h.status !== 'OPEN') throw conflict('该隐患已整改');
    if (form.rectifiedDate > shanghaiToday())
      throw fieldError('rectifiedDate', '不能晚于今天', '整改完成日期');
    if (o.serviceDate && form.rectifiedDate < o.serviceDate)
      throw fieldError('rectifiedDate', '不能早于服务日期', '整改完成日期');
    await tx
      .update(serviceHazards)
      .set({
        status: 'RECTIFIED',
        rectifiedDate: form.rectifiedDate,
        rectifyNote: form.note ?? null,
        rectifiedBy: v.user.id,
        rectifiedAt: sql`now()`,
      })
      .where(eq(serviceHazards.id, h.id));
    await tx.update(serviceOrders).set(bump).where(eq(serviceOrders.id, o.id));
    await addEvent(tx, v, {
      orderId: o.id,
      action: 'rectify',
      from: o.status,
      to: o.status,
      opinion: `隐患 ${h.seq}（${HAZARD_LEVEL_LABELS[h.level as HazardLevel] ?? h.level}）已整改${form.note ? `：${form.note}` : ''}`,
    });
    await auditOrder(tx, v, 'rectify', o.id, {
      number: o.number,
      hazardId: h.id,
      rectifiedDate: form.rectifiedDate,
    });
    await closeIfRectified(tx, v, o);
    return o.id;
  });
  return getOrder(db, v, String(id));
}

// ---- satisfaction and complaints (the enterprise) ----

/** POST /api/prevention/orders/:ref/rate: once, after confirmation. */
export async function rateOrder(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof rateForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'enterprise');
    if (!RATEABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '评价');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    if (o.satisfaction != null) throw conflict('该服务单已评价');
    await tx
      .update(serviceOrders)
      .set({
        satisfaction: form.satisfaction,
        satisfactionComment: form.comment ?? null,
        ratedAt: sql`now()`,
        ...bump,
      })
      .where(eq(serviceOrders.id, o.id));
    await addEvent(tx, v, {
      orderId: o.id,
      action: 'rate',
      from: o.status,
      to: o.status,
      opinion: `满意度 ${form.satisfaction} 分${form.comment ? `：${form.comment}` : ''}`,
    });
    await auditOrder(tx, v, 'rate', o.id, {
      number: o.number,
      satisfaction: form.satisfaction,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

/** POST /api/prevention/orders/:ref/complaints: reply due in 10 working days; one open complaint at a time. */
export async function complain(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof complaintForm>,
  today: string = shanghaiToday(),
): Promise<ServiceOrderDetail> {
  try {
    const id = await db.transaction(async (tx) => {
      const o = await lockOrder(tx, v, ref);
      await requireParty(tx, v, o, 'enterprise');
      if (!COMPLAINABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '投诉');
      const deadline = complaintDeadline(today);
      const [c] = await tx
        .insert(serviceComplaints)
        .values({
          orderId: o.id,
          content: form.content,
          complainedOn: today,
          deadline,
          createdBy: v.user.id,
          createdByName: v.user.username,
        })
        .returning({ id: serviceComplaints.id });
      await addEvent(tx, v, {
        orderId: o.id,
        action: 'complain',
        from: o.status,
        to: o.status,
        opinion: form.content,
      });
      await auditOrder(tx, v, 'complain', o.id, {
        number: o.number,
        complaintId: c!.id,
        deadline,
      });
      return o.id;
    });
    return getOrder(db, v, String(id));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该服务单已有未答复的投诉');
    throw err;
  }
}

/** POST /api/prevention/orders/:ref/complaints/:complaintId/reply: the order's organisation or staff. */
export async function replyComplaint(
  db: Db,
  v: PreventionViewer,
  ref: string,
  complaintId: number,
  reply: string,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    const isOrg = v.orgId != null && v.orgId === o.orgId;
    if (!isOrg && !(await sidesOnPolicy(tx, v, o.policyId)).insurer)
      throw forbidden('只有承接该服务的服务机构或保险公司人员可以答复投诉');
    const [c] = await tx
      .select()
      .from(serviceComplaints)
      .where(and(eq(serviceComplaints.id, complaintId), eq(serviceComplaints.orderId, o.id)))
      .for('update');
    if (!c) throw notFound(COMPLAINT_NOT_FOUND);
    if (c.status !== 'OPEN') throw conflict('该投诉已答复');
    await tx
      .update(serviceComplaints)
      .set({
        status: 'REPLIED',
        reply,
        repliedAt: sql`now()`,
        repliedBy: v.user.id,
        repliedByName: v.user.username,
      })
      .where(eq(serviceComplaints.id, c.id));
    await addEvent(tx, v, { orderId: o.id, action: 'reply', from: o.status, to: o.status, opinion: reply });
    await auditOrder(tx, v, 'reply', o.id, {
      number: o.number,
      complaintId: c.id,
      overdue: shanghaiToday() > c.deadline,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

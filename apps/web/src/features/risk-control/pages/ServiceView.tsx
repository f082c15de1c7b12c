// 服务详情 (riskControl/ServiceView, route prevention/view/:seqNo?order=<order number>): the read-only record
// of a service order — summary, on-site record, hazards, photos, complaints and history — with what the
// caller's side may do now: the enterprise confirms a SUBMITTED record (with a 1–5 satisfaction and a comment;
// the cost is spent from the fund, then prevention/success) or sends it back with an opinion, rates once,
// complains (answered within 10 working days); the organisation marks hazards 已整改 after the confirmation,
// answers complaints, and takes the order on (接单 / 开始服务 / 执行服务); insurer staff cancel and answer.
// Every call sends the version as loaded; a refusal is shown in the dialog, a 409 reloads the order.
import { shanghaiToday } from '@piibs/shared/application-status';
import type { ComplaintRow, HazardRow, ServiceOrderDetail } from '@piibs/shared/risk-control';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Rate, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  complain,
  orderAction,
  orderQuery,
  ordersResource,
  plansResource,
  rectifyHazard,
  replyComplaint,
  successPath,
} from '../api.ts';
import { useOrderActions } from '../components/OrderActions.tsx';
import {
  ComplaintList,
  EventTimeline,
  HazardTable,
  OrderSummary,
  RecordDescriptions,
} from '../components/OrderParts.tsx';
import { useOrderPage } from '../components/useOrderPage.tsx';
import { dayText } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

type Dialog =
  | { kind: 'confirm' }
  | { kind: 'return' }
  | { kind: 'rate' }
  | { kind: 'complain' }
  | { kind: 'reply'; complaint: ComplaintRow }
  | { kind: 'rectify'; hazard: HazardRow };

interface DialogValues {
  satisfaction?: number;
  comment?: string;
  opinion?: string;
  content?: string;
  reply?: string;
  rectifiedDate?: Dayjs;
  note?: string;
}

const TITLES: Record<Dialog['kind'], (d: Dialog) => string> = {
  confirm: () => T.confirmTitle,
  return: () => T.returnTitle,
  rate: () => T.rateTitle,
  complain: () => T.complainTitle,
  reply: () => T.reply,
  rectify: (d) => T.rectifyTitle(d.kind === 'rectify' ? d.hazard.description : ''),
};

const trimmed = (v: string | undefined) => (v?.trim() ? v.trim() : null);

export default function ServiceView() {
  const page = useOrderPage();
  const order = page.order;
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<DialogValues>();
  const remember = (fresh: ServiceOrderDetail) => {
    client.setQueryData(orderQuery(page.ref).queryKey, fresh);
    return Promise.all([
      client.invalidateQueries({ queryKey: ordersResource.key }),
      client.invalidateQueries({ queryKey: plansResource.key }),
    ]);
  };
  const actions = useOrderActions({ mode: 'view', onDone: (fresh) => void remember(fresh) });

  if (!order) return <>{page.fallback}</>;

  const open = (d: Dialog) => {
    form.resetFields();
    setError(null);
    setDialog(d);
  };

  const call = (d: Dialog, v: DialogValues): Promise<ServiceOrderDetail> => {
    switch (d.kind) {
      case 'confirm':
        return orderAction(order.number, 'confirm', order.version, {
          satisfaction: v.satisfaction,
          comment: trimmed(v.comment),
        });
      case 'return':
        return orderAction(order.number, 'return', order.version, { opinion: (v.opinion ?? '').trim() });
      case 'rate':
        return orderAction(order.number, 'rate', order.version, {
          satisfaction: v.satisfaction,
          comment: trimmed(v.comment),
        });
      case 'complain':
        return complain(order.number, (v.content ?? '').trim());
      case 'reply':
        return replyComplaint(order.number, d.complaint.id, (v.reply ?? '').trim());
      case 'rectify':
        return rectifyHazard(order.number, d.hazard.id, {
          version: order.version,
          rectifiedDate: dayText(v.rectifiedDate) ?? '',
          note: trimmed(v.note),
        });
    }
  };

  const finish = async (v: DialogValues) => {
    if (!dialog) return;
    setSaving(true);
    setError(null);
    try {
      const fresh = await call(dialog, v);
      await remember(fresh);
      void message.success(T.saved);
      setDialog(null);
      if (dialog.kind === 'confirm') navigate(successPath(fresh.seqNo, fresh.number));
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409) {
        await page.refetch();
        setError(`${refusal.message}（${T.conflictReloaded}）`);
      } else setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  const may = (a: 'confirm' | 'return') => order.actions.includes(a);
  const enterpriseButtons: ReactNode[] = [];
  if (may('confirm'))
    enterpriseButtons.push(
      <Button key="confirm" type="primary" onClick={() => open({ kind: 'confirm' })}>
        {T.confirm}
      </Button>,
    );
  if (may('return'))
    enterpriseButtons.push(
      <Button key="return" danger onClick={() => open({ kind: 'return' })}>
        {T.returnTitle}
      </Button>,
    );
  if (order.canRate)
    enterpriseButtons.push(
      <Button key="rate" onClick={() => open({ kind: 'rate' })}>
        {T.rate}
      </Button>,
    );
  if (order.canComplain)
    enterpriseButtons.push(
      <Button key="complain" onClick={() => open({ kind: 'complain' })}>
        {T.complain}
      </Button>,
    );

  const recorded = order.findings !== null || order.serviceDate !== null;
  const canReply = order.party !== 'enterprise';

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={T.viewTitle(order.number)}
          extra={
            <Space wrap>
              {actions.buttons(order)}
              <Can code="prevention:confirm">
                <Space wrap>{enterpriseButtons}</Space>
              </Can>
              <Button onClick={() => navigate(-1)}>{T.back}</Button>
            </Space>
          }
        >
          {order.returnOpinion && order.status === 'IN_SERVICE' ? (
            <Alert
              type="warning"
              showIcon
              title={`${T.returnOpinion}：${order.returnOpinion}`}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <OrderSummary order={order} />
        </Card>
        {recorded ? (
          <Card variant="borderless" title={T.findings}>
            <RecordDescriptions order={order} />
          </Card>
        ) : null}
        <Card variant="borderless" title={T.hazardList}>
          <HazardTable
            hazards={order.hazards}
            onRectify={order.canRectify ? (hazard) => open({ kind: 'rectify', hazard }) : undefined}
          />
        </Card>
        <Card variant="borderless" title={T.photos}>
          <MaterialsPanel
            businessType="service_order"
            businessId={order.id}
            docTypes={['SERVICE_RECORD']}
            editable={false}
          />
        </Card>
        <Card variant="borderless" title={T.complaints}>
          <ComplaintList
            complaints={order.complaints}
            onReply={canReply ? (complaint) => open({ kind: 'reply', complaint }) : undefined}
          />
        </Card>
        <Card variant="borderless" title={T.history}>
          <EventTimeline events={order.events} />
        </Card>
      </Space>
      {actions.dialog}

      <Modal
        open={dialog !== null}
        title={dialog ? TITLES[dialog.kind](dialog) : ''}
        okText={T.ok}
        cancelText={T.cancel}
        confirmLoading={saving}
        onCancel={() => setDialog(null)}
        onOk={() => form.submit()}
        destroyOnHidden
        mask={{ closable: false }}
      >
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        <Form<DialogValues>
          form={form}
          layout="vertical"
          name="order-dialog"
          onFinish={(v) => void finish(v)}
          initialValues={{ rectifiedDate: dayjs(shanghaiToday()) }}
        >
          {dialog?.kind === 'confirm' ? (
            <Alert type="info" showIcon title={T.confirmHint} style={{ marginBottom: 16 }} />
          ) : null}
          {dialog?.kind === 'confirm' || dialog?.kind === 'rate' ? (
            <>
              <Form.Item
                name="satisfaction"
                label={T.satisfaction}
                rules={[{ required: true, message: T.choose(T.satisfaction) }]}
              >
                <Rate aria-label={T.satisfaction} />
              </Form.Item>
              <Form.Item name="comment" label={T.comment}>
                <Input.TextArea rows={3} maxLength={500} showCount />
              </Form.Item>
            </>
          ) : null}
          {dialog?.kind === 'return' ? (
            <Form.Item
              name="opinion"
              label={T.opinion}
              rules={[{ required: true, whitespace: true, message: T.required(T.opinion) }]}
            >
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          ) : null}
          {dialog?.kind === 'complain' ? (
            <Form.Item
              name="content"
              label={T.complaintContent}
              rules={[{ required: true, whitespace: true, message: T.required(T.complaintContent) }]}
            >
              <Input.TextArea rows={4} maxLength={1000} showCount />
            </Form.Item>
          ) : null}
          {dialog?.kind === 'reply' ? (
            <>
              <Alert type="info" title={dialog.complaint.content} style={{ marginBottom: 16 }} />
              <Form.Item
                name="reply"
                label={T.replyContent}
                rules={[{ required: true, whitespace: true, message: T.required(T.replyContent) }]}
              >
                <Input.TextArea rows={4} maxLength={1000} showCount />
              </Form.Item>
            </>
          ) : null}
          {dialog?.kind === 'rectify' ? (
            <>
              <Form.Item
                name="rectifiedDate"
                label={T.rectifiedDate}
                rules={[{ required: true, message: T.choose(T.rectifiedDate) }]}
              >
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="note" label={T.rectifyNote}>
                <Input.TextArea rows={3} maxLength={500} />
              </Form.Item>
            </>
          ) : null}
        </Form>
      </Modal>
    </div>
  );
}

// The buttons of a service order's allowed actions (the server lists them per row for the caller's side):
// 接单 / 开始服务 after a confirmation, 拒单 / 取消服务单 with a reason, 执行服务 opens the on-site record form,
// 确认服务 opens the read-only record where the enterprise confirms or sends back. Each sends the version as
// loaded; a refusal (409 stale, 400 …) is shown in a dialog with the server's words and the lists reload.
import {
  SERVICE_ORDER_ACTION_LABELS,
  type ServiceOrderAction,
  type ServiceOrderDetail,
  type ServiceOrderRow,
} from '@piibs/shared/risk-control';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { orderAction, ordersResource, plansResource, servicePath, viewPath } from '../api.ts';
import { RISK_TEXTS as T } from '../texts.ts';

type OrderLike = Pick<ServiceOrderRow, 'id' | 'number' | 'seqNo' | 'version' | 'actions' | 'status'>;

/** The permission code the server checks for each action. */
const ACTION_PERMISSIONS: Readonly<Record<ServiceOrderAction, string>> = {
  accept: 'prevention:serve',
  reject: 'prevention:serve',
  start: 'prevention:serve',
  submit: 'prevention:serve',
  return: 'prevention:confirm',
  confirm: 'prevention:confirm',
  cancel: 'prevention:plan',
};

type ReasonAction = 'reject' | 'cancel';

/**
 * The action buttons of an order and the dialog they open. `mode` 'view': the page itself offers confirm and
 * return (with their forms), so they are left out here.
 */
export function useOrderActions({
  mode,
  onDone,
}: {
  mode: 'list' | 'view';
  onDone?: (detail: ServiceOrderDetail) => void;
}): { buttons: (order: OrderLike) => ReactNode; dialog: ReactNode } {
  const { modal, message } = useAppApis();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [reason, setReason] = useState<{ order: OrderLike; action: ReasonAction } | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ordersResource.key }),
      client.invalidateQueries({ queryKey: plansResource.key }),
    ]);

  const run = async (order: OrderLike, action: ServiceOrderAction, extra: Record<string, unknown> = {}) => {
    try {
      const detail = await orderAction(order.number, action, order.version, extra);
      void message.success(T.actionDone(SERVICE_ORDER_ACTION_LABELS[action]));
      client.setQueryData([...ordersResource.key, 'detail', order.number], detail);
      await refresh();
      onDone?.(detail);
      return true;
    } catch (err) {
      modal.error({ title: SERVICE_ORDER_ACTION_LABELS[action], content: errorMessage(err), okText: T.ok });
      await refresh();
      return false;
    }
  };

  const confirmThen = (order: OrderLike, action: ServiceOrderAction) =>
    modal.confirm({
      title: SERVICE_ORDER_ACTION_LABELS[action],
      content: `${SERVICE_ORDER_ACTION_LABELS[action]}：${order.number}？`,
      okText: T.ok,
      cancelText: T.cancel,
      onOk: () => run(order, action),
    });

  const button = (order: OrderLike, action: ServiceOrderAction): ReactNode => {
    const label = SERVICE_ORDER_ACTION_LABELS[action];
    let onClick: () => void;
    let text = label;
    let danger = false;
    switch (action) {
      case 'accept':
      case 'start':
        onClick = () => confirmThen(order, action);
        break;
      case 'reject':
      case 'cancel':
        danger = true;
        onClick = () => {
          form.resetFields();
          setReason({ order, action });
        };
        break;
      case 'submit':
        text = T.perform;
        onClick = () => navigate(servicePath(order.seqNo, order.number));
        break;
      case 'confirm':
        if (mode === 'view') return null;
        text = T.confirm;
        onClick = () => navigate(viewPath(order.seqNo, order.number));
        break;
      case 'return':
        return null;
    }
    return (
      <Can key={action} code={ACTION_PERMISSIONS[action]}>
        <Button
          type={mode === 'list' ? 'link' : 'default'}
          size={mode === 'list' ? 'small' : 'middle'}
          danger={danger}
          onClick={onClick}
          data-action={action}
        >
          {text}
        </Button>
      </Can>
    );
  };

  const buttons = (order: OrderLike) => order.actions.map((a) => button(order, a));

  const dialog = (
    <Modal
      open={reason !== null}
      title={reason ? `${SERVICE_ORDER_ACTION_LABELS[reason.action]}：${reason.order.number}` : ''}
      okText={T.ok}
      cancelText={T.cancel}
      okButtonProps={{ danger: true }}
      confirmLoading={saving}
      onCancel={() => setReason(null)}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ reason: text }) => {
          if (!reason) return;
          setSaving(true);
          const ok = await run(reason.order, reason.action, { reason: text.trim() });
          setSaving(false);
          if (ok) setReason(null);
        }}
      >
        <Form.Item
          name="reason"
          label={reason ? T.reasonOf[reason.action] : ''}
          rules={[
            {
              required: true,
              whitespace: true,
              message: T.required(reason ? T.reasonOf[reason.action] : ''),
            },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );

  return { buttons, dialog };
}

// 修改年度订单: staff change the quota (never below what is consumed: the server answers 409 with the amounts)
// and the contact, on the version loaded (a 409 for a stale version reloads the order into the form).

import { fenToYuanText, formatFen, yuanTextToFen } from '@piibs/shared/money';
import type { AnnualOrderDetail } from '@piibs/shared/project-order';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import { annualOrderQuery, updateAnnualOrder } from '../api.ts';

interface EditValues {
  quotaYuan?: string | null;
  contactName?: string | null;
  contactPhone?: string | null;
  note?: string | null;
}

const toValues = (o: AnnualOrderDetail): EditValues => ({
  quotaYuan: fenToYuanText(o.quotaFen),
  contactName: o.contactName,
  contactPhone: o.contactPhone,
  note: o.note,
});

export function AnnualOrderEditModal({
  order,
  open,
  onClose,
  onSaved,
}: {
  order: AnnualOrderDetail;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const client = useQueryClient();
  return (
    <CrudModal<EditValues, AnnualOrderDetail>
      open={open}
      title={`修改年度订单 ${order.number}`}
      record={order}
      toValues={toValues}
      fieldNames={{ quotaFen: 'quotaYuan' }}
      reload={(o) => client.fetchQuery({ ...annualOrderQuery(o.id), staleTime: 0 })}
      onClose={onClose}
      onSaved={onSaved}
      onSubmit={(v, current) =>
        updateAnnualOrder(order.id, {
          quotaFen: v.quotaYuan ? (yuanTextToFen(String(v.quotaYuan)) ?? 0) : 0,
          contactName: v.contactName ?? null,
          contactPhone: v.contactPhone ?? null,
          note: v.note ?? null,
          version: (current ?? order).version,
        })
      }
    >
      <Form.Item
        name="quotaYuan"
        label="保费额度"
        rules={[{ required: true, message: '请输入保费额度' }, yuanRule()]}
        extra={`不能低于已占用的保费 ${formatFen(order.consumedFen)}`}
      >
        <YuanInput />
      </Form.Item>
      <Form.Item name="contactName" label="联系人">
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="contactPhone" label="联系电话" extra="显示为脱敏号码时保留原号码">
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="note" label="备注">
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </CrudModal>
  );
}

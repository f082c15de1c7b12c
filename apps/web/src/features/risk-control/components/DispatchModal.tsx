// Dispatching a service order for a plan item: the date (by default the item's next planned one), the persons,
// the cost (by default the item's unit cost) and a note.
import { fenToYuanText } from '@piibs/shared/money';
import { nextScheduledDate, type PlanItemRow, type ServiceOrderDetail } from '@piibs/shared/risk-control';
import { DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { dispatchOrder } from '../api.ts';
import { dayOf, dayText, fenOfYuan } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';
import { amountRule, PersonSelect } from './plan-fields.tsx';

interface DispatchValues {
  scheduledDate?: Dayjs;
  personIds?: number[];
  cost?: string;
  note?: string | null;
}

export function DispatchModal({
  seqNo,
  item,
  firstDay,
  onClose,
  onSaved,
}: {
  seqNo: string;
  /** The item to dispatch an order for; null while closed. */
  item: PlanItemRow | null;
  /** The first day an order may be planned for (yyyy-mm-dd). */
  firstDay: string;
  onClose: () => void;
  onSaved: (order: ServiceOrderDetail) => void;
}) {
  return (
    <CrudModal<DispatchValues, never>
      open={item !== null}
      title={item ? T.dispatchTitle(item.itemLabel) : ''}
      okText={T.dispatch}
      initialValues={{
        scheduledDate: dayOf((item && nextScheduledDate(item, firstDay)) ?? firstDay),
        personIds: item?.persons.map((p) => p.id) ?? [],
      }}
      fieldNames={{ costFen: 'cost' }}
      onClose={onClose}
      onSubmit={(v) =>
        dispatchOrder(seqNo, {
          planItemId: item!.id,
          scheduledDate: dayText(v.scheduledDate) ?? '',
          personIds: v.personIds?.length ? v.personIds : undefined,
          costFen: fenOfYuan(v.cost) ?? undefined,
          note: v.note?.trim() || null,
        })
      }
      onSaved={(order) => onSaved(order as ServiceOrderDetail)}
    >
      <Form.Item
        name="scheduledDate"
        label={T.scheduledDate}
        rules={[{ required: true, message: T.choose(T.scheduledDate) }]}
      >
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="personIds" label={T.persons} extra={T.personsHint}>
        <PersonSelect orgId={item?.orgId} />
      </Form.Item>
      <Form.Item name="cost" label={T.costYuan} extra={T.costHint} rules={[amountRule]}>
        <Input prefix="¥" inputMode="decimal" placeholder={item ? fenToYuanText(item.unitCostFen) : ''} />
      </Form.Item>
      <Form.Item name="note" label={T.note}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </CrudModal>
  );
}

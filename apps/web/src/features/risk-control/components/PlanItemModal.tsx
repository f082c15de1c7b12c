// A service plan item, added or changed by insurer staff: what is served, how often, at what unit cost, by
// which organisation and persons, and (optionally) on which planned dates within the policy period.
import { shanghaiToday } from '@piibs/shared/application-status';
import { fenToYuanText } from '@piibs/shared/money';
import {
  FREQUENCY_TIMES,
  type PlanDetail,
  type PlanItemRow,
  SCHEDULED_DATES_TITLE,
  SERVICE_FREQUENCIES,
  SERVICE_FREQUENCY_LABELS,
  SERVICE_ITEM_LABELS,
  SERVICE_ITEM_TYPES,
  type ServiceFrequency,
  type ServiceItemType,
  scheduledDatesProblem,
} from '@piibs/shared/risk-control';
import { useQuery } from '@tanstack/react-query';
import { Col, DatePicker, Form, type FormInstance, Input, InputNumber, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { addPlanItem, orgOptionsQuery, updatePlanItem } from '../api.ts';
import { dayOf, dayText, fenOfYuan } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';
import { amountRule, PersonSelect } from './plan-fields.tsx';

interface ItemValues {
  itemType?: ServiceItemType;
  content?: string | null;
  frequency?: ServiceFrequency;
  times?: number;
  unitCost?: string;
  orgId?: number;
  personIds?: number[];
  scheduledDates?: Dayjs[];
}

/** Texts of the planned dates (the shared risk-control texts belong to other pages' work too). */
const DATES_TEXTS = Object.freeze({
  label: SCHEDULED_DATES_TITLE,
  hint: (start: string, end: string) => `可选多个日期：${start} 至 ${end} 之间，不多于计划次数`,
});

export interface Period {
  startDate: string;
  endDate: string;
}

/** The planned dates: a multiple-date picker bounded by the policy period, checked by the shared rule. */
function ScheduledDatesField({ form, period }: { form: FormInstance<ItemValues>; period: Period }) {
  const today = shanghaiToday();
  const opensAt =
    today < period.startDate ? period.startDate : today > period.endDate ? period.endDate : today;
  return (
    <Form.Item
      name="scheduledDates"
      label={DATES_TEXTS.label}
      extra={DATES_TEXTS.hint(period.startDate, period.endDate)}
      dependencies={['times']}
      rules={[
        {
          validator: async (_: unknown, v: Dayjs[] | undefined) => {
            const times = form.getFieldValue('times') as number | undefined;
            if (!v?.length || !times) return;
            const problem = scheduledDatesProblem(
              v.map((d) => dayText(d)!),
              times,
              period,
            );
            if (problem) throw new Error(problem);
          },
        },
      ]}
    >
      <DatePicker
        multiple
        aria-label={DATES_TEXTS.label}
        minDate={dayOf(period.startDate)}
        maxDate={dayOf(period.endDate)}
        defaultPickerValue={dayOf(opensAt)}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );
}

function ItemFields({ form, period }: { form: FormInstance<ItemValues>; period: Period }) {
  const orgs = useQuery(orgOptionsQuery());
  const orgId = Form.useWatch('orgId', form);
  return (
    <>
      <Form.Item
        name="itemType"
        label={T.itemType}
        rules={[{ required: true, message: T.choose(T.itemType) }]}
      >
        <Select
          aria-label={T.itemType}
          options={SERVICE_ITEM_TYPES.map((t) => ({ value: t, label: SERVICE_ITEM_LABELS[t] }))}
        />
      </Form.Item>
      <Form.Item name="content" label={T.content}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Row gutter={12}>
        <Col span={16}>
          <Form.Item
            name="frequency"
            label={T.frequency}
            rules={[{ required: true, message: T.choose(T.frequency) }]}
          >
            <Select
              aria-label={T.frequency}
              options={SERVICE_FREQUENCIES.map((f) => ({ value: f, label: SERVICE_FREQUENCY_LABELS[f] }))}
              onChange={(f: ServiceFrequency) => form.setFieldValue('times', FREQUENCY_TIMES[f])}
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="times" label={T.times} rules={[{ required: true, message: T.required(T.times) }]}>
            <InputNumber min={1} max={366} precision={0} aria-label={T.times} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <ScheduledDatesField form={form} period={period} />
      <Form.Item
        name="unitCost"
        label={T.unitCost}
        rules={[{ required: true, whitespace: true, message: T.required(T.unitCost) }, amountRule]}
      >
        <Input prefix="¥" inputMode="decimal" />
      </Form.Item>
      <Form.Item name="orgId" label={T.org} rules={[{ required: true, message: T.choose(T.org) }]}>
        <Select
          aria-label={T.org}
          showSearch={{ optionFilterProp: 'label' }}
          loading={orgs.isPending}
          options={(orgs.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          onChange={() => form.setFieldValue('personIds', [])}
        />
      </Form.Item>
      <Form.Item name="personIds" label={T.persons}>
        <PersonSelect orgId={orgId} />
      </Form.Item>
    </>
  );
}

export function PlanItemModal({
  seqNo,
  period,
  open,
  item,
  onClose,
  reload,
  onSaved,
}: {
  seqNo: string;
  /** The policy period the planned dates must fall in. */
  period: Period;
  open: boolean;
  /** The item to change; null adds one. */
  item: PlanItemRow | null;
  onClose: () => void;
  /** The item as the server holds it now, after a 409. */
  reload: (item: PlanItemRow) => Promise<PlanItemRow | undefined>;
  /** The plan as saved. */
  onSaved: (plan: PlanDetail) => void;
}) {
  return (
    <CrudModal<ItemValues, PlanItemRow>
      open={open}
      title={item ? T.editItem : T.addItem}
      record={item}
      width={600}
      toValues={(i) => ({
        itemType: i.itemType,
        content: i.content,
        frequency: i.frequency,
        times: i.times,
        unitCost: fenToYuanText(i.unitCostFen),
        orgId: i.orgId,
        personIds: i.persons.map((p) => p.id),
        scheduledDates: i.scheduledDates.map((d) => dayOf(d)!),
      })}
      initialValues={{ frequency: 'ONCE', times: 1, personIds: [], scheduledDates: [] }}
      fieldNames={{ unitCostFen: 'unitCost' }}
      onClose={onClose}
      reload={reload}
      onSubmit={(v, record) => {
        const body = {
          itemType: v.itemType!,
          content: v.content?.trim() || null,
          frequency: v.frequency!,
          times: v.times,
          unitCostFen: fenOfYuan(v.unitCost) ?? 0,
          orgId: v.orgId!,
          personIds: v.personIds ?? [],
          // Always sent: an edit keeps (or changes) the item's dates.
          scheduledDates: [...new Set((v.scheduledDates ?? []).map((d) => dayText(d)!))].sort(),
        };
        return record
          ? updatePlanItem(seqNo, record.id, { ...body, version: record.version })
          : addPlanItem(seqNo, body);
      }}
      onSaved={(fresh) => onSaved(fresh as PlanDetail)}
    >
      {(form) => <ItemFields form={form} period={period} />}
    </CrudModal>
  );
}

// 新建年度订单: staff open an annual order for an approved contractor on a construction product, with a premium
// quota (yuan on screen, fen on the wire).

import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { yuanTextToFen } from '@piibs/shared/money';
import type { AnnualOrderDetail } from '@piibs/shared/project-order';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import { approvedCustomersQuery, availableProductsQuery } from '@/features/application/api.ts';
import { createAnnualOrder } from '../api.ts';

interface OrderValues {
  customerId?: number;
  productId?: number;
  startDate?: string;
  endDate?: string;
  quotaYuan?: string | null;
  note?: string;
}

const FORMAT = 'YYYY-MM-DD';
const toPicker = (value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null });
const fromPicker = (value: Dayjs | null) => (value ? value.format(FORMAT) : undefined);

export function AnnualOrderModal({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: (order: AnnualOrderDetail) => void;
}) {
  const [blurry, setBlurry] = useState('');
  const customers = useQuery({ ...approvedCustomersQuery(blurry), enabled: open });
  const products = useQuery({ ...availableProductsQuery(), enabled: open });
  const construction = (products.data ?? []).filter((p) => p.productClass === 'construction');
  const today = shanghaiToday();
  return (
    <CrudModal<OrderValues, AnnualOrderDetail>
      open={open}
      title="新建年度订单"
      initialValues={{
        productId: construction[0]?.id,
        startDate: today,
        endDate: addDays(addDays(today, 365), -1),
      }}
      fieldNames={{ quotaFen: 'quotaYuan' }}
      onClose={onClose}
      onSaved={(result) => onSaved(result as AnnualOrderDetail)}
      onSubmit={(v) =>
        createAnnualOrder({
          customerId: v.customerId ?? 0,
          productId: v.productId ?? 0,
          startDate: v.startDate ?? '',
          endDate: v.endDate ?? '',
          quotaFen: v.quotaYuan ? (yuanTextToFen(String(v.quotaYuan)) ?? 0) : 0,
          note: v.note ?? null,
        })
      }
    >
      <Form.Item
        name="customerId"
        label="施工企业（投保人）"
        rules={[{ required: true, message: '请选择施工企业' }]}
      >
        <Select
          showSearch={{ filterOption: false, onSearch: setBlurry }}
          loading={customers.isFetching}
          placeholder="输入名称或统一社会信用代码搜索（须已审核通过）"
          options={(customers.data ?? []).map((c) => ({ value: c.id, label: `${c.name}（${c.uscc}）` }))}
        />
      </Form.Item>
      <Form.Item name="productId" label="险种" rules={[{ required: true, message: '请选择险种' }]}>
        <Select
          loading={products.isFetching}
          options={construction.map((p) => ({ value: p.id, label: p.name }))}
          placeholder="建筑工程类险种"
        />
      </Form.Item>
      <Form.Item
        name="startDate"
        label="起始日期"
        rules={[{ required: true, message: '请选择起始日期' }]}
        getValueProps={toPicker}
        normalize={fromPicker}
      >
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="endDate"
        label="终止日期"
        rules={[{ required: true, message: '请选择终止日期' }]}
        getValueProps={toPicker}
        normalize={fromPicker}
        extra="年度订单期间不超过一年"
      >
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="quotaYuan"
        label="保费额度"
        rules={[{ required: true, message: '请输入保费额度' }, yuanRule()]}
        extra="年度内各项目申报保费合计不超过此额度"
      >
        <YuanInput />
      </Form.Item>
      <Form.Item name="note" label="备注">
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </CrudModal>
  );
}

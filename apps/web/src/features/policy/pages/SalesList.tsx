// The supplement lists (policy/marge*): the issued policies the caller may see with their supplement status.
// 'supplement' (补录资料, 农民工补录销售信息) offers 补录 / 查看 / 修改; 'updateSale' (修改销售信息) lists supplemented
// policies only and offers 修改销售人员 (a modal with the reason and the change history).
import { formatFen } from '@piibs/shared/money';
import {
  BUSINESS_SOURCE_DICT,
  type SalesRow,
  SUPPLEMENT_STATUS_LABELS,
  SUPPLEMENT_STATUSES,
  SUPPLEMENT_VARIANT_LABELS,
  SUPPLEMENT_VARIANTS,
  type SupplementStatus,
  type SupplementVariant,
} from '@piibs/shared/sales';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { Can } from '@/lib/permission.tsx';
import { margePath, salesResource } from '../api.ts';
import { PolicyStatusTag } from '../components/PolicySummary.tsx';
import { SalespersonModal } from '../components/SalespersonModal.tsx';
import { SALES_TEXTS as T } from '../texts.ts';

const STATUS_COLORS: Record<SupplementStatus, string> = { NONE: 'warning', DONE: 'success' };

export function SupplementStatusTag({ status }: { status: SupplementStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{SUPPLEMENT_STATUS_LABELS[status]}</Tag>;
}

const keyword: SearchField = {
  kind: 'input',
  name: 'blurry',
  label: T.searchKeyword,
  placeholder: T.searchKeywordHint,
};
const statusField: SearchField = {
  kind: 'select',
  name: 'status',
  label: T.supplementStatus,
  options: SUPPLEMENT_STATUSES.map((value) => ({ value, label: SUPPLEMENT_STATUS_LABELS[value] })),
  width: 120,
};
const variantField: SearchField = {
  kind: 'select',
  name: 'variant',
  label: T.variant,
  options: SUPPLEMENT_VARIANTS.map((value) => ({ value, label: SUPPLEMENT_VARIANT_LABELS[value] })),
  width: 150,
};
const sourceField: SearchField = {
  kind: 'select',
  name: 'businessSource',
  label: T.businessSource,
  dict: BUSINESS_SOURCE_DICT,
  width: 150,
};
const issuedField: SearchField = {
  kind: 'dateRange',
  name: 'issuedAt',
  label: T.issuedAt,
  start: 'startTime',
  end: 'endTime',
};

const SUPPLEMENT_SEARCH = [keyword, statusField, variantField, sourceField, issuedField];
const UPDATE_SALE_SEARCH = [keyword, variantField, sourceField, issuedField];

export interface SalesListProps {
  mode: 'supplement' | 'updateSale';
  /** The form variant the 补录 action opens (the NBNMG list opens the migrant-worker form). */
  variant?: SupplementVariant;
}

export function SalesList({ mode, variant = 'STANDARD' }: SalesListProps) {
  const search = mode === 'supplement' ? SUPPLEMENT_SEARCH : UPDATE_SALE_SEARCH;
  const list = useListState({ filterKeys: searchKeys(search) });
  const navigate = useNavigate();
  const [changing, setChanging] = useState<SalesRow | null>(null);

  const columns: CrudColumn<SalesRow>[] = [
    {
      key: 'number',
      title: T.number,
      dataIndex: 'number',
      sortField: 'number',
      alwaysVisible: true,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    { key: 'holderName', title: T.holder, dataIndex: 'holderName' },
    { key: 'productName', title: T.product, dataIndex: 'productName' },
    {
      key: 'period',
      title: T.period,
      render: (_, row) => `${row.startDate} 至 ${row.endDate}`,
    },
    {
      key: 'premiumFen',
      title: T.premium,
      dataIndex: 'premiumFen',
      sortField: 'premiumFen',
      align: 'right',
      render: (v: number) => formatFen(v),
    },
    {
      key: 'policyStatus',
      title: T.policyStatus,
      dataIndex: 'policyStatus',
      defaultHidden: mode === 'updateSale',
      render: (_, row) => <PolicyStatusTag status={row.policyStatus} label={row.policyStatusLabel} />,
    },
    {
      key: 'supplementStatus',
      title: T.supplementStatus,
      dataIndex: 'supplementStatus',
      alwaysVisible: mode === 'supplement',
      render: (_, row) => <SupplementStatusTag status={row.supplementStatus} />,
    },
    {
      key: 'variant',
      title: T.variant,
      dataIndex: 'variant',
      defaultHidden: mode === 'supplement',
      render: (v: SupplementVariant | null) => (v ? SUPPLEMENT_VARIANT_LABELS[v] : T.none),
    },
    {
      key: 'salesperson',
      title: T.salesperson,
      render: (_, row) => (row.salespersonName ? `${row.salespersonName}（${row.salespersonNo}）` : T.none),
    },
    { key: 'agentName', title: T.agent, dataIndex: 'agentName', render: (v: string | null) => v ?? T.none },
    {
      key: 'commission',
      title: T.commission,
      dataIndex: 'commissionRateText',
      align: 'right',
      render: (v: string | null) => (v === null ? T.none : `${v}%`),
    },
    {
      key: 'businessSource',
      title: T.businessSource,
      dataIndex: 'businessSourceLabel',
      defaultHidden: true,
      render: (v: string | null) => v ?? T.none,
    },
    {
      key: 'wageAccount',
      title: T.wageAccount,
      dataIndex: 'wageAccountNo',
      defaultHidden: variant !== 'NBNMG',
      render: (v: string | null) => v ?? T.none,
    },
    {
      key: 'issuedAt',
      title: T.issuedAt,
      dataIndex: 'issuedAt',
      sortField: 'issuedAt',
      defaultHidden: true,
      render: (v: string) => v.slice(0, 10),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) =>
        mode === 'updateSale' ? (
          <Space size={0}>
            <Can code="sales:edit">
              <Button type="link" size="small" onClick={() => setChanging(row)}>
                {T.changeSalesperson}
              </Button>
            </Can>
            <Button type="link" size="small" onClick={() => navigate(margePath(row.policyId, true))}>
              {T.view}
            </Button>
          </Space>
        ) : row.supplementStatus === 'NONE' ? (
          <Can code="sales:edit">
            <Button
              type="link"
              size="small"
              onClick={() => navigate(margePath(row.policyId, false, variant))}
            >
              {T.supplement}
            </Button>
          </Can>
        ) : (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => navigate(margePath(row.policyId, true))}>
              {T.view}
            </Button>
            <Can code="sales:edit">
              <Button
                type="link"
                size="small"
                onClick={() => navigate(margePath(row.policyId, false, row.variant ?? variant))}
              >
                {T.edit}
              </Button>
            </Can>
          </Space>
        ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={search} list={list} />
      <CrudTable<SalesRow>
        id={`policy.sales.${mode}.${variant}`}
        resource={salesResource}
        list={list}
        columns={columns}
        selectable={false}
        query={mode === 'updateSale' ? { status: 'DONE' } : undefined}
      />
      {changing ? (
        <SalespersonModal
          policyId={changing.policyId}
          policyNumber={changing.number}
          onClose={() => setChanging(null)}
        />
      ) : null}
    </CrudPage>
  );
}

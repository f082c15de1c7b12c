// The policy lists: 保单查询 (insurer staff: every policy their application scope shows) and 我的保单 (enterprise,
// agent and contractor accounts: their own). Number, holder, product, period, premium and status (未生效 / 有效 /
// 已到期 / 已退保), filters, xlsx export; the number opens the policy page (e-policy, renewal, prevention
// services, sales information). GET /api/policies and /api/policies/download, scoped on the server.
import { formatFen } from '@piibs/shared/money';
import { POLICY_STATUS_LABELS, POLICY_STATUSES, type PolicyRow } from '@piibs/shared/policy';
import { useQuery } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { availableProductsQuery } from '@/features/application/api.ts';
import { policiesResource, policyViewPath } from '../api.ts';
import { PolicyStatusTag } from '../components/PolicySummary.tsx';

export interface PolicyListProps {
  /** 'mine': 我的保单 (the holder's or agent's own); 'all': 保单查询 (insurer staff). */
  mode: 'all' | 'mine';
}

export function PolicyList({ mode }: PolicyListProps) {
  const products = useQuery(availableProductsQuery());
  const search: SearchField[] = [
    {
      kind: 'input',
      name: 'blurry',
      label: '关键词',
      placeholder: mode === 'all' ? '保单号、投保人名称、信用代码或被保险人' : '保单号或被保险人',
    },
    {
      kind: 'select',
      name: 'status',
      label: '保单状态',
      options: POLICY_STATUSES.map((value) => ({ value, label: POLICY_STATUS_LABELS[value] })),
      width: 120,
    },
    {
      kind: 'select',
      name: 'productId',
      label: '险种',
      options: (products.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
      width: 220,
      searchable: true,
    },
    { kind: 'dateRange', name: 'issuedAt', label: '出单日期', start: 'startTime', end: 'endTime' },
  ];
  const list = useListState({ filterKeys: searchKeys(search) });
  const navigate = useNavigate();

  const columns: CrudColumn<PolicyRow>[] = [
    {
      key: 'number',
      title: '保单号',
      dataIndex: 'number',
      sortField: 'number',
      alwaysVisible: true,
      render: (v: string, row) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          onClick={() => navigate(policyViewPath(row.id))}
        >
          {v}
        </Button>
      ),
    },
    { key: 'holderName', title: '投保人', dataIndex: 'holderName' },
    { key: 'insuredName', title: '被保险人', dataIndex: 'insuredName', defaultHidden: true },
    { key: 'productName', title: '险种', dataIndex: 'productName' },
    {
      key: 'period',
      title: '保险期间',
      sortField: 'startDate',
      render: (_, row) => `${row.startDate} 至 ${row.endDate}`,
    },
    {
      key: 'premiumFen',
      title: '保费',
      dataIndex: 'premiumFen',
      sortField: 'premiumFen',
      align: 'right',
      render: (v: number) => formatFen(v),
    },
    {
      key: 'status',
      title: '保单状态',
      dataIndex: 'status',
      render: (_, row) => <PolicyStatusTag status={row.status} label={row.statusLabel} />,
    },
    {
      key: 'applicationNumber',
      title: '投保单号',
      dataIndex: 'applicationNumber',
      defaultHidden: true,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    {
      key: 'issuedAt',
      title: '出单日期',
      dataIndex: 'issuedAt',
      sortField: 'issuedAt',
      defaultHidden: true,
      render: (v: string) => v.slice(0, 10),
    },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => navigate(policyViewPath(row.id))}>
          查看
        </Button>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={search} list={list} />
      <CrudTable<PolicyRow>
        id={`policy.list.${mode}`}
        resource={policiesResource}
        list={list}
        columns={columns}
        selectable={false}
      />
    </CrudPage>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { formatTime } from '@piibs/shared/constants';
import type { CustomerRow } from '@piibs/shared/customer';
import { REVIEW_STATUS_LABELS, REVIEW_STATUSES } from '@piibs/shared/review';
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { Can } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';
import { customerPath, customersResource } from '../api.ts';
import { ReviewStatusTag } from '../components/ReviewStatusTag.tsx';
import { MaskedPhone } from '../components/UnmaskPhone.tsx';
import { APPLICANT_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: T.keywordPlaceholder, width: 240 },
  {
    kind: 'select',
    name: 'reviewStatus',
    label: T.reviewStatus,
    options: REVIEW_STATUSES.map((value) => ({ value, label: REVIEW_STATUS_LABELS[value] })),
    width: 130,
  },
  { kind: 'select', name: 'industrySection', label: T.industrySection, dict: 'industry_section', width: 220 },
];
const FILTER_KEYS = searchKeys(SEARCH);

/**
 * 客户列表: customers (投保人) the caller may see, phones masked (holders of customer:unmask can reveal one);
 * view / edit open the customer's page.
 */
export default function CustomerList() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'updatedAt,desc' });
  const navigate = useNavigate();
  const roles = useUserStore((state) => state.roles);
  const open = (id: number, detail: boolean) => navigate(customerPath(roles, id, detail));

  const columns: CrudColumn<CustomerRow>[] = [
    {
      key: 'name',
      title: T.name,
      dataIndex: 'name',
      sortField: 'name',
      alwaysVisible: true,
      render: (name: string, row) => (
        <Typography.Link onClick={() => open(row.id, true)}>{name}</Typography.Link>
      ),
    },
    { key: 'uscc', title: T.uscc, dataIndex: 'uscc', sortField: 'uscc' },
    {
      key: 'industry',
      title: T.industry,
      render: (_, row) =>
        [
          row.industrySectionName ?? row.industrySection,
          row.industryDivisionName ?? row.industryDivision,
        ].join(' / '),
    },
    {
      key: 'region',
      title: T.region,
      dataIndex: 'region',
      sortField: 'region',
      render: (_, row) => row.regionName ?? row.region,
    },
    { key: 'contactName', title: T.contactName, dataIndex: 'contactName' },
    {
      key: 'phone',
      title: T.phone,
      dataIndex: 'phone',
      render: (phone: string, row) => <MaskedPhone key={row.id} customerId={row.id} phone={phone} compact />,
    },
    {
      key: 'headcount',
      title: T.headcount,
      dataIndex: 'headcount',
      sortField: 'headcount',
      defaultHidden: true,
    },
    {
      key: 'owner',
      title: T.owner,
      dataIndex: 'ownerName',
      render: (v: string | null) => v ?? T.none,
    },
    {
      key: 'reviewStatus',
      title: T.reviewStatus,
      dataIndex: 'reviewStatus',
      sortField: 'reviewStatus',
      render: (_, row) => <ReviewStatusTag status={row.reviewStatus} />,
    },
    {
      key: 'updatedAt',
      title: T.updatedAt,
      dataIndex: 'updatedAt',
      sortField: 'updatedAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(row.id, true)}>
            {T.view}
          </Button>
          <RowAction permission="customer:edit" onClick={() => open(row.id, false)}>
            {T.edit}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<CustomerRow>
        id="applicant.customers"
        resource={customersResource}
        list={list}
        columns={columns}
        selectable={false}
        toolbar={
          <Can code="customer:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(0, false)}>
              {T.add}
            </Button>
          </Can>
        }
      />
    </CrudPage>
  );
}

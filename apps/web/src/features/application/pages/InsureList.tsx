import { PlusOutlined } from '@ant-design/icons';
import type { ApplicationRow } from '@piibs/shared/application';
import {
  APPLICATION_STATUS_LABELS,
  APPLICATION_STATUSES,
  CHANNEL_LABELS,
  CHANNELS,
} from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { Can } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';
import { applicationsResource } from '../api.ts';
import { ApplicationActions } from '../components/ApplicationActions.tsx';
import { ApplicationStatusTag } from '../components/ApplicationStatusTag.tsx';
import { FLOWS, stepPath } from '../flows.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: '关键词', placeholder: '投保单号、投保人、信用代码' },
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    options: APPLICATION_STATUSES.map((value) => ({ value, label: APPLICATION_STATUS_LABELS[value] })),
    width: 130,
  },
  {
    kind: 'select',
    name: 'channel',
    label: '渠道',
    options: CHANNELS.map((value) => ({ value, label: CHANNEL_LABELS[value] })),
    width: 140,
  },
  { kind: 'dateRange', name: 'createdAt', label: '创建时间', start: 'startTime', end: 'endTime' },
];
const FILTER_KEYS = searchKeys(SEARCH);

/**
 * 投保单列表: the caller's applications (an enterprise its own, an agent its clients', staff by data scope) with
 * their state; each row offers what the server allows now: continue, view, cancel, pay.
 */
export default function InsureList() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'updatedAt,desc' });
  const navigate = useNavigate();
  const roles = useUserStore((state) => state.roles);
  const newFlow = roles.includes('agent')
    ? FLOWS.agent
    : roles.includes('contractor')
      ? FLOWS.epinsure
      : FLOWS.insured;

  const columns: CrudColumn<ApplicationRow>[] = [
    {
      key: 'number',
      title: '投保单号',
      dataIndex: 'number',
      alwaysVisible: true,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    { key: 'applicantName', title: '投保人', dataIndex: 'applicantName' },
    { key: 'productName', title: '险种', dataIndex: 'productName' },
    {
      key: 'channel',
      title: '渠道',
      dataIndex: 'channel',
      render: (v: ApplicationRow['channel']) => CHANNEL_LABELS[v],
    },
    {
      key: 'status',
      title: '状态',
      dataIndex: 'status',
      render: (_, row) => <ApplicationStatusTag status={row.status} />,
    },
    {
      key: 'premiumFen',
      title: '保费',
      dataIndex: 'premiumFen',
      sortField: 'premiumFen',
      align: 'right',
      render: (v: number | null) => formatFen(v),
    },
    {
      key: 'period',
      title: '保险期间',
      render: (_, row) => (row.startDate ? `${row.startDate} 至 ${row.endDate ?? ''}` : '—'),
    },
    { key: 'ownerName', title: '经办人', dataIndex: 'ownerName', defaultHidden: true },
    {
      key: 'updatedAt',
      title: '更新时间',
      dataIndex: 'updatedAt',
      sortField: 'updatedAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => <ApplicationActions row={row} />,
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<ApplicationRow>
        id="epinsure.applications"
        resource={applicationsResource}
        list={list}
        columns={columns}
        selectable={false}
        toolbar={
          <Can code="application:add">
            <Space>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => navigate(stepPath(newFlow, 'stepOne', 0, 1))}
              >
                {roles.includes('agent') ? '代客投保' : '在线投保'}
              </Button>
              {newFlow.name !== 'agent' ? null : (
                <Button onClick={() => navigate(stepPath(FLOWS.epinsure, 'stepOne', 0, 1))}>
                  工程险投保
                </Button>
              )}
            </Space>
          </Can>
        }
      />
    </CrudPage>
  );
}

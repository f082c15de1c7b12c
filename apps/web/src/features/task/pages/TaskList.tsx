import { formatTime } from '@piibs/shared/constants';
import { tenderAuditPath } from '@piibs/shared/project-order';
import {
  REVIEW_DECISION_LABELS,
  type ReviewDecision,
  TASK_KIND_LABELS,
  TASK_KINDS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  type TaskKind,
} from '@piibs/shared/review';
import type { TaskRow } from '@piibs/shared/task';
import { Button, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { ageText, auditPath, tasksResource } from '../api.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: '关键词', placeholder: '审核对象名称或代码' },
  {
    kind: 'select',
    name: 'status',
    label: '任务状态',
    options: TASK_STATUSES.map((value) => ({ value, label: TASK_STATUS_LABELS[value] })),
    width: 120,
  },
  {
    kind: 'select',
    name: 'kind',
    label: '任务类型',
    options: TASK_KINDS.map((value) => ({ value, label: TASK_KIND_LABELS[value] })),
    width: 160,
  },
];
const FILTER_KEYS = searchKeys(SEARCH);
/** The kinds this screen can open: customers and applications on the audit page, secondary orders on theirs. */
const OPENABLE: readonly TaskKind[] = ['customer', 'application', 'tender'];
const openPath = (row: TaskRow) =>
  row.kind === 'tender'
    ? tenderAuditPath(row.id, row.status === 'open')
    : auditPath(row.id, row.status === 'open');

/** 审核任务: the review queue, oldest first, with how long each has waited; 处理 opens the audit page. */
export default function TaskList() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'createdAt,asc' });
  const navigate = useNavigate();

  const columns: CrudColumn<TaskRow>[] = [
    {
      key: 'title',
      title: '审核对象',
      dataIndex: 'title',
      alwaysVisible: true,
      render: (title: string) => <Typography.Text strong>{title}</Typography.Text>,
    },
    {
      key: 'kind',
      title: '任务类型',
      dataIndex: 'kind',
      render: (kind: TaskKind) => TASK_KIND_LABELS[kind] ?? kind,
    },
    {
      key: 'status',
      title: '任务状态',
      dataIndex: 'status',
      render: (_, row) => (
        <Tag color={row.status === 'open' ? 'processing' : 'default'}>{TASK_STATUS_LABELS[row.status]}</Tag>
      ),
    },
    {
      key: 'submittedBy',
      title: '提交人',
      render: (_, row) => row.submittedBy?.name ?? '—',
    },
    {
      key: 'assignee',
      title: '处理人',
      render: (_, row) => row.assignee?.name ?? '—',
    },
    {
      key: 'createdAt',
      title: '提交时间',
      dataIndex: 'createdAt',
      sortField: 'createdAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'age',
      title: '等待时长',
      dataIndex: 'ageSeconds',
      render: (seconds: number) => ageText(seconds),
    },
    {
      key: 'decision',
      title: '审核结论',
      dataIndex: 'decision',
      render: (decision: ReviewDecision | null, row) =>
        decision
          ? `${REVIEW_DECISION_LABELS[decision]}${row.decidedBy ? `（${row.decidedBy.name}）` : ''}`
          : '—',
    },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) =>
        OPENABLE.includes(row.kind) ? (
          <Button type="link" size="small" onClick={() => navigate(openPath(row))}>
            {row.status === 'open' ? '处理' : '查看'}
          </Button>
        ) : null,
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<TaskRow>
        id="task.tasks"
        resource={tasksResource}
        list={list}
        columns={columns}
        selectable={false}
        addHint={false}
      />
    </CrudPage>
  );
}

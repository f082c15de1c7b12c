import { formatTime } from '@piibs/shared/constants';
import { tenderAuditPath } from '@piibs/shared/project-order';
import {
  REVIEW_DECISION_LABELS,
  REVIEW_DECISIONS,
  type ReviewDecision,
  TASK_ASSIGN_PERMISSION,
  TASK_ASSIGNEE_FILTER_LABELS,
  TASK_ASSIGNEE_FILTERS,
  TASK_KIND_LABELS,
  TASK_KINDS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  type TaskKind,
} from '@piibs/shared/review';
import type { TaskRow } from '@piibs/shared/task';
import { Button, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { useCan } from '@/lib/permission.tsx';
import { ageText, auditPath, tasksResource } from '../api.ts';
import { AssignModal, HOLDER_TEXTS, useHolderActions, useMyId } from '../components/holder.tsx';

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
  {
    kind: 'select',
    name: 'decision',
    label: '审核结论',
    options: REVIEW_DECISIONS.map((value) => ({ value, label: REVIEW_DECISION_LABELS[value] })),
    width: 120,
  },
];
/** 处理人: the URL's `assignee` (me / none; unset: everyone's). */
const ALL = 'all';
const ASSIGNEE_OPTIONS = [
  { value: ALL, label: '全部' },
  ...TASK_ASSIGNEE_FILTERS.map((value) => ({ value, label: TASK_ASSIGNEE_FILTER_LABELS[value] })),
];
const FILTER_KEYS = [...searchKeys(SEARCH), 'assignee'];
/** The kinds this screen can open: customers and applications on the audit page, secondary orders on theirs. */
const OPENABLE: readonly TaskKind[] = ['customer', 'application', 'tender'];
const openPath = (row: TaskRow) =>
  row.kind === 'tender'
    ? tenderAuditPath(row.id, row.status === 'open')
    : auditPath(row.id, row.status === 'open');

/**
 * 审核任务: the review queue, oldest first, with how long each has waited and who holds each task (我的 / 未分配 /
 * 全部); 处理 opens the audit page, 领取 takes an unheld task, 指派 (task:assign) hands it to a reviewer.
 */
export default function TaskList() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'createdAt,asc' });
  const navigate = useNavigate();
  const myId = useMyId();
  const canAssign = useCan(TASK_ASSIGN_PERMISSION);
  const { busy, claim } = useHolderActions();
  const [assigning, setAssigning] = useState<TaskRow | null>(null);

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
      render: (_, row) =>
        row.assignee ? `${row.assignee.name}${row.assignee.id === myId ? HOLDER_TEXTS.me : ''}` : '—',
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
      render: (_, row) => (
        <Space size={0}>
          {OPENABLE.includes(row.kind) ? (
            <Button type="link" size="small" onClick={() => navigate(openPath(row))}>
              {row.status === 'open' ? '处理' : '查看'}
            </Button>
          ) : null}
          {row.status === 'open' && !row.assignee ? (
            <Button type="link" size="small" loading={busy === row.id} onClick={() => void claim(row)}>
              {HOLDER_TEXTS.claim}
            </Button>
          ) : null}
          {row.status === 'open' && canAssign ? (
            <Button type="link" size="small" onClick={() => setAssigning(row)}>
              {HOLDER_TEXTS.assign}
            </Button>
          ) : null}
        </Space>
      ),
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
        toolbar={
          <Segmented
            aria-label="处理人筛选"
            value={list.filters.assignee ?? ALL}
            options={ASSIGNEE_OPTIONS}
            onChange={(value) =>
              list.setFilters({ ...list.filters, assignee: value === ALL ? undefined : String(value) })
            }
          />
        }
      />
      <AssignModal task={assigning} onClose={() => setAssigning(null)} />
    </CrudPage>
  );
}

import { formatTime } from '@piibs/shared/constants';
import {
  OPINION_REQUIRED,
  REVIEW_DECISION_LABELS,
  type ReviewDecision,
  TASK_STATUS_LABELS,
} from '@piibs/shared/review';
import type { TaskRow } from '@piibs/shared/task';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Result,
  Space,
  Spin,
  Table,
  Tag,
  Timeline,
} from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { invalidateResource, serverError } from '@/components/crud/resource.ts';
import { CustomerDescriptions } from '@/components/customer/CustomerDescriptions.tsx';
import { decideTask, TASK_LIST_PATH, taskQuery, tasksResource } from '../api.ts';

const OPINION_MESSAGE = '退回或拒绝时必须填写审核意见';
const DECISIONS: readonly ReviewDecision[] = ['approve', 'return', 'reject'];
const FIELD_MESSAGE = /^审核意见：(.+)$/;

interface DecisionValues {
  opinion?: string;
}

function changeText(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return '';
  }
}

/**
 * 审核客户信息 (task/CustomerAudit, /piibs/task/audit/:id/:audit): the task's customer read-only, its change
 * history and earlier decisions; with `audit` 'true' and the task open, 通过 / 退回 / 拒绝 with an opinion
 * (required for 退回 and 拒绝), sent with the task's version.
 */
export default function CustomerAudit() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<DecisionValues>();
  const [error, setError] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<ReviewDecision | null>(null);
  const query = useQuery({ ...taskQuery(id), enabled: id > 0 });
  const task = query.data;

  if (query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (query.isError || !task) {
    return (
      <Result
        status="warning"
        title={serverError(query.error)?.message ?? '找不到该审核任务'}
        extra={<Button onClick={() => navigate(TASK_LIST_PATH)}>返回任务列表</Button>}
      />
    );
  }

  const canDecide = params.audit === 'true' && task.status === 'open';

  const decide = async (decision: ReviewDecision) => {
    setError(null);
    const opinion = (form.getFieldValue('opinion') as string | undefined)?.trim() ?? '';
    if (OPINION_REQUIRED.includes(decision) && !opinion) {
      form.setFields([{ name: 'opinion', errors: [OPINION_MESSAGE] }]);
      return;
    }
    form.setFields([{ name: 'opinion', errors: [] }]);
    setDeciding(decision);
    try {
      await decideTask(task.id, { decision, opinion: opinion || null, version: task.version });
      void message.success(`审核完成：${REVIEW_DECISION_LABELS[decision]}`);
      await invalidateResource(client, tasksResource);
      navigate(TASK_LIST_PATH);
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal || refusal.status === 401) return;
      const field = FIELD_MESSAGE.exec(refusal.message);
      if (field) {
        form.setFields([{ name: 'opinion', errors: [field[1]!] }]);
      } else {
        setError(refusal.message);
        if (refusal.status === 409) await query.refetch();
      }
    } finally {
      setDeciding(null);
    }
  };

  const historyColumns = [
    { key: 'createdAt', title: '提交时间', dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    {
      key: 'decision',
      title: '审核结论',
      dataIndex: 'decision',
      render: (d: ReviewDecision | null, row: TaskRow) =>
        d ? REVIEW_DECISION_LABELS[d] : TASK_STATUS_LABELS[row.status],
    },
    { key: 'opinion', title: '审核意见', dataIndex: 'opinion', render: (v: string | null) => v ?? '—' },
    { key: 'decidedBy', title: '审核人', render: (_: unknown, row: TaskRow) => row.decidedBy?.name ?? '—' },
    {
      key: 'decidedAt',
      title: '审核时间',
      dataIndex: 'decidedAt',
      render: (v: string | null) => (v ? formatTime(v) : '—'),
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={task.title}
          extra={
            <Tag color={task.status === 'open' ? 'processing' : 'default'}>
              {TASK_STATUS_LABELS[task.status]}
            </Tag>
          }
        >
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
          {task.customer ? <CustomerDescriptions customer={task.customer} /> : <Empty />}
          {task.status === 'done' && task.decision ? (
            <Alert
              style={{ marginTop: 16 }}
              type="info"
              title={`审核结论：${REVIEW_DECISION_LABELS[task.decision]}${task.opinion ? `（${task.opinion}）` : ''}`}
            />
          ) : null}
        </Card>

        {canDecide ? (
          <Card variant="borderless" title="审核">
            <Form<DecisionValues> form={form} layout="vertical" name="decision">
              <Form.Item name="opinion" label="审核意见" extra="退回或拒绝时必填">
                <Input.TextArea rows={3} maxLength={500} showCount />
              </Form.Item>
              <Space>
                {DECISIONS.map((decision) => (
                  <Button
                    key={decision}
                    type={decision === 'approve' ? 'primary' : 'default'}
                    danger={decision === 'reject'}
                    loading={deciding === decision}
                    disabled={deciding !== null && deciding !== decision}
                    onClick={() => void decide(decision)}
                  >
                    {REVIEW_DECISION_LABELS[decision]}
                  </Button>
                ))}
                <Button onClick={() => navigate(TASK_LIST_PATH)}>返回</Button>
              </Space>
            </Form>
          </Card>
        ) : null}

        <Card variant="borderless" title="历次审核">
          <Table<TaskRow>
            size="small"
            rowKey="id"
            pagination={false}
            columns={historyColumns}
            dataSource={task.history}
            locale={{ emptyText: '暂无历次审核' }}
          />
        </Card>

        <Card variant="borderless" title="变更记录">
          {task.changes.length ? (
            <Timeline
              items={task.changes.map((change, i) => ({
                key: i,
                content: (
                  <>
                    <div>
                      {formatTime(change.at)} {change.actor ?? ''} {change.action}
                    </div>
                    {changeText(change.detail) ? (
                      <div style={{ opacity: 0.65, wordBreak: 'break-all' }}>{changeText(change.detail)}</div>
                    ) : null}
                  </>
                ),
              }))}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无变更记录" />
          )}
        </Card>
      </Space>
    </div>
  );
}

import { REVIEW_DECISION_LABELS, TASK_STATUS_LABELS } from '@piibs/shared/review';
import type { TaskDetail } from '@piibs/shared/task';
import { Alert, Card, Tag } from 'antd';
import type { ReactNode } from 'react';
import { HOLDER_TEXTS, TaskHolder } from './holder.tsx';

/**
 * The head card of a review page: the task's title and state, the last refusal, who holds an open task (领取 /
 * 释放 / 指派), a warning while auditing a task another reviewer holds, the record under review (children) and,
 * once decided, the decision with its opinion.
 */
export function TaskCard({
  task,
  error,
  heldByOther,
  children,
}: {
  task: TaskDetail;
  error: string | null | undefined;
  /** Auditing a task another reviewer holds. */
  heldByOther: boolean;
  children: ReactNode;
}) {
  return (
    <Card
      variant="borderless"
      title={task.title}
      extra={
        <Tag color={task.status === 'open' ? 'processing' : 'default'}>{TASK_STATUS_LABELS[task.status]}</Tag>
      }
    >
      {error ? <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} /> : null}
      {task.status === 'open' ? (
        <div style={{ marginBottom: 16 }}>
          <TaskHolder task={task} />
        </div>
      ) : null}
      {heldByOther ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={HOLDER_TEXTS.heldByOther(task.assignee!.name)}
        />
      ) : null}
      {children}
      {task.status === 'done' && task.decision ? (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          title={`审核结论：${REVIEW_DECISION_LABELS[task.decision]}${task.opinion ? `（${task.opinion}）` : ''}`}
        />
      ) : null}
    </Card>
  );
}

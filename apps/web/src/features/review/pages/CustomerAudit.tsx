import { auditActionText, auditDetailLines } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import type { TaskDetail } from '@piibs/shared/task';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Spin, Timeline, Typography } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { ApplicationInsuredPersons } from '@/features/application/components/ApplicationInsuredPersons.tsx';
import { ApplicationMaterials } from '@/features/application/components/ApplicationMaterials.tsx';
import {
  ApplicationFacts,
  ApplicationPremium,
  ApplicationTimeline,
} from '@/features/application/components/ApplicationSummary.tsx';
import { CustomerDescriptions } from '@/features/customer/components/CustomerDescriptions.tsx';
import { TASK_LIST_PATH, taskQuery } from '../api.ts';
import { AuditSection } from '../components/AuditSection.tsx';
import { CustomerHistory } from '../components/CustomerHistory.tsx';
import {
  AuditLayout,
  DecisionCard,
  type DecisionHints,
  TaskHistory,
  useTaskDecision,
} from '../components/decision.tsx';
import { heldByOther, useMyId } from '../components/holder.tsx';
import { TaskCard } from '../components/TaskCard.tsx';

const APPLICATION_HINTS: DecisionHints = {
  approve: '通过后投保单核保通过，投保人付款后即出具保单',
  return: '退回后投保人按审核意见修改并重新提交',
  reject: '拒绝后投保单终止，不能再提交',
};
const CUSTOMER_HINTS: DecisionHints = {
  approve: '通过后客户信息生效，可用于投保',
  return: '退回后由提交人按审核意见修改并重新提交',
  reject: '拒绝后客户信息不能用于投保',
};

/** 重新提交的修改: what the applicant changed after the return, 字段：旧值 → 新值. */
function ResubmittedChanges({ changes }: { changes: NonNullable<TaskDetail['resubmitted']> }) {
  const lines = auditDetailLines(changes, { entity: 'application' });
  if (!lines.length)
    return <Typography.Text type="secondary">退回后未修改投保信息，原样重新提交</Typography.Text>;
  return (
    <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="resubmitted-changes">
      {lines.map((line) => (
        <li key={line} style={{ wordBreak: 'break-all' }}>
          {line}
        </li>
      ))}
    </ul>
  );
}

/**
 * 审核客户信息 (task/CustomerAudit, /piibs/task/audit/:id/:audit): the task's customer — or, for an application
 * task, the application, in the order an underwriter reads it: the risk, a resubmission's changes and the quote
 * with its co-insurers; the applicant and their history (客户历史); the image materials (inline, read-only) and
 * the timeline — read-only, then earlier decisions and the change history, each section foldable; who holds
 * the task (领取 / 释放 / 指派); with `audit` 'true' and the task open and not held by another reviewer,
 * 通过 / 退回 / 拒绝 with an opinion (required for 退回 and 拒绝), sent with the task's version; on an
 * application also the documents still missing for approval and 要求补充资料 (with 退回, or keeping it under
 * review).
 */
export default function CustomerAudit() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const query = useQuery({ ...taskQuery(id), enabled: id > 0 });
  const task = query.data;
  const decision = useTaskDecision({
    task,
    reload: () => query.refetch(),
    hints: task?.application ? APPLICATION_HINTS : CUSTOMER_HINTS,
  });
  const { error } = decision;
  const myId = useMyId();

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

  const auditing = params.audit === 'true' && task.status === 'open';
  const othersTask = heldByOther(task, myId);
  const canDecide = auditing && !othersTask;
  const customerId = task.application?.customer.id ?? task.customer?.id;

  return (
    <AuditLayout
      decision={canDecide ? <DecisionCard decision={decision} materials={!!task.application} /> : null}
    >
      <TaskCard task={task} error={error} heldByOther={auditing && othersTask}>
        {task.application ? (
          <ApplicationFacts app={task.application} />
        ) : task.customer ? (
          <CustomerDescriptions customer={task.customer} />
        ) : (
          <Empty />
        )}
      </TaskCard>

      {task.application ? (
        <>
          {task.resubmitted ? (
            <AuditSection title="重新提交的修改">
              <ResubmittedChanges changes={task.resubmitted} />
            </AuditSection>
          ) : null}
          <AuditSection title="保费信息">
            <ApplicationPremium app={task.application} />
          </AuditSection>
          <ApplicationInsuredPersons
            applicationId={task.application.id}
            frame={(title, table) => <AuditSection title={title}>{table}</AuditSection>}
          />
          <AuditSection title={`投保人：${task.application.customer.name}`}>
            <CustomerDescriptions customer={task.application.customer} />
          </AuditSection>
        </>
      ) : null}

      {customerId ? <CustomerHistory customerId={customerId} exclude={task.application?.id} /> : null}

      {task.application ? (
        <>
          <AuditSection title="影像资料">
            <ApplicationMaterials app={task.application} reader="review" />
          </AuditSection>
          <AuditSection title="投保单历史">
            <ApplicationTimeline events={task.events ?? []} />
          </AuditSection>
        </>
      ) : null}

      <TaskHistory rows={task.history} />

      {/* An application's own changes are summed up above (重新提交的修改): its full trail starts folded. */}
      <AuditSection title="变更记录" defaultOpen={!task.application}>
        {task.changes.length ? (
          <Timeline
            items={task.changes.map((change, i) => ({
              key: i,
              content: (
                <>
                  <div>
                    {formatTime(change.at)} {change.actor ?? ''} {auditActionText(change.action)}
                  </div>
                  {change.lines.map((line) => (
                    <div key={line} style={{ opacity: 0.65, wordBreak: 'break-all' }}>
                      {line}
                    </div>
                  ))}
                </>
              ),
            }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无变更记录" />
        )}
      </AuditSection>
    </AuditLayout>
  );
}

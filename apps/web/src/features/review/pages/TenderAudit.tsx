import { orderDetailPath } from '@piibs/shared/project-order';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { CustomerDescriptions } from '@/features/customer/components/CustomerDescriptions.tsx';
import { declarationQuery, invalidateProjects } from '@/features/project/api.ts';
import { ChangeComparison } from '@/features/project/components/ChangeSummary.tsx';
import {
  DeclarationFacts,
  DeclarationQuote,
  DeclarationTimeline,
  QuotaSummary,
} from '@/features/project/components/ProjectSummary.tsx';
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

const DECISION_HINTS: DecisionHints = {
  approve: '通过后即出具项目保单（保费按年度订单结算）',
  return: '退回后施工企业修改并重新提交，占用的额度保留',
  reject: '拒绝后申报终止，占用的额度释放',
};
/** A change (批改): approval amends the project and issues an endorsement. */
const CHANGE_HINTS: DecisionHints = {
  approve: '通过后项目按批改后的信息承保，并出具批单（保费差额按年度订单结算，退还部分释放额度）',
  return: '退回后施工企业修改并重新提交，占用的额度保留',
  reject: '拒绝后批改终止，项目保持原样，占用的额度释放',
};

/**
 * 审核二次下单信息 (task/TenderAudit, /piibs/task/tenderAudit/:id/:audit): the declared project with its quote
 * (cost bands, high-risk loading) — for a change (批改), each changed field before → after and the premium
 * difference — the annual order's quota, the contractor and their history (客户历史), the declaration's
 * history, each section foldable; with `audit` 'true' and the task open, 通过 (the project's policy is issued)
 * / 退回 / 拒绝 with an opinion (required for 退回 and 拒绝), sent with the task's version (409 when another
 * reviewer was first).
 */
export default function TenderAudit() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const query = useQuery({ ...taskQuery(id), enabled: id > 0 });
  const task = query.data;
  const declaration = useQuery({
    ...declarationQuery(task?.subjectId ?? 0),
    enabled: task?.kind === 'tender',
  });
  const decision = useTaskDecision({
    task,
    reload: () => Promise.all([query.refetch(), declaration.refetch()]),
    afterDecision: () => invalidateProjects(client),
    hints: declaration.data?.kind === 2 ? CHANGE_HINTS : DECISION_HINTS,
  });
  const { error } = decision;
  const myId = useMyId();

  if (query.isPending || (task?.kind === 'tender' && declaration.isPending)) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (query.isError || !task || task.kind !== 'tender' || !declaration.data) {
    return (
      <Result
        status="warning"
        title={serverError(query.error ?? declaration.error)?.message ?? '找不到该审核任务'}
        extra={<Button onClick={() => navigate(TASK_LIST_PATH)}>返回任务列表</Button>}
      />
    );
  }
  const d = declaration.data;
  const auditing = params.audit === 'true' && task.status === 'open';
  const othersTask = heldByOther(task, myId);
  const canDecide = auditing && !othersTask;

  return (
    <AuditLayout decision={canDecide ? <DecisionCard decision={decision} /> : null}>
      <TaskCard task={task} error={error} heldByOther={auditing && othersTask}>
        <DeclarationFacts declaration={d} />
      </TaskCard>

      {d.kind === 2 ? (
        <AuditSection title={`批改内容（项目 ${d.baseNumber ?? ''}）`}>
          <ChangeComparison declaration={d} />
        </AuditSection>
      ) : null}

      <AuditSection title="保费信息（按工程造价分档计费）">
        <DeclarationQuote declaration={d} />
      </AuditSection>

      <AuditSection
        title={`年度订单 ${d.order.number}`}
        extra={<Link to={orderDetailPath(d.order.id)}>订单详情</Link>}
      >
        <QuotaSummary order={d.order} />
      </AuditSection>

      {task.customer ? (
        <>
          <AuditSection title={`施工企业：${task.customer.name}`}>
            <CustomerDescriptions customer={task.customer} />
          </AuditSection>
          <CustomerHistory customerId={task.customer.id} />
        </>
      ) : null}

      <AuditSection title="申报历史">
        <DeclarationTimeline events={d.events} />
      </AuditSection>

      <TaskHistory rows={task.history} />
    </AuditLayout>
  );
}

import { formatTime } from '@piibs/shared/constants';
import { POLICY_CHANGE_REVIEWS_PATH, type PolicyChangeKind } from '@piibs/shared/policy-change';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Spin, Tag } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { policyChangeQuery, policyViewPath, reviewPolicyChange } from '@/features/policy/api.ts';
import { AuditSection } from '../components/AuditSection.tsx';
import { AuditLayout, DecisionCard, type DecisionHints, useTaskDecision } from '../components/decision.tsx';
import { kindWords, PolicyChangeComparison, premiumDeltaWords } from '../components/PolicyChangeFacts.tsx';

const HINTS: Readonly<Record<PolicyChangeKind, DecisionHints>> = {
  ENDORSEMENT: {
    approve:
      '通过后出具批单：保费增加的，投保人在支付期限内补缴后生效，逾期未缴则失效；退还保费的，经支付渠道原路退回后生效；保费不变的立即生效',
    return: '退回后投保人可重新提交，保单保持原样',
    reject: '拒绝后申请终止，保单保持原样',
  },
  CANCELLATION: {
    approve: '通过后退还保费经支付渠道原路退回，保单自生效日期起退保，出具退保批单，未开始的服务单取消',
    return: '退回后投保人可重新提交，保单继续有效',
    reject: '拒绝后申请终止，保单继续有效',
  },
};

/**
 * 审核批改/退保申请 (task/PolicyChangeAudit, /piibs/task/policyChange/:id): the request — its policy, policyholder,
 * product, kind, effective date and what it moves in money — each changed item before → after, and while it
 * waits for review 通过 / 退回 / 拒绝 with an opinion (required for 退回 and 拒绝), sent with the version the
 * page shows (409 when someone was first: the page reloads and says so).
 */
export default function PolicyChangeAudit() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const query = useQuery({ ...policyChangeQuery(id), enabled: id > 0 });
  const c = query.data;
  const decision = useTaskDecision({
    task: c,
    reload: () => query.refetch(),
    afterDecision: () => client.invalidateQueries({ queryKey: ['policy'] }),
    hints: HINTS[c?.kind ?? 'ENDORSEMENT'],
    target: {
      send: ({ decision: d, opinion, version }) =>
        reviewPolicyChange(id, { decision: d, version, ...(opinion ? { opinion } : {}) }),
      listPath: POLICY_CHANGE_REVIEWS_PATH,
    },
  });

  if (id > 0 && query.isPending)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  if (!c)
    return (
      <Result
        status="warning"
        title={serverError(query.error)?.message ?? '批改/退保申请不存在'}
        extra={<Button onClick={() => navigate(POLICY_CHANGE_REVIEWS_PATH)}>返回批改审核</Button>}
      />
    );
  const open = c.status === 'PENDING_REVIEW';
  return (
    <AuditLayout decision={open ? <DecisionCard decision={decision} /> : null}>
      <Card
        variant="borderless"
        title={`${c.kindLabel}申请 ${c.number}`}
        extra={<Tag color={open ? 'processing' : 'default'}>{c.statusLabel}</Tag>}
      >
        {decision.error ? (
          <Alert type="error" showIcon role="alert" title={decision.error} style={{ marginBottom: 16 }} />
        ) : null}
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label="保单号">
            <Link to={policyViewPath(c.policyId)}>{c.policyNumber}</Link>
          </Descriptions.Item>
          <Descriptions.Item label="投保人">{c.holderName}</Descriptions.Item>
          <Descriptions.Item label="产品">{c.productName}</Descriptions.Item>
          <Descriptions.Item label="类型">{kindWords(c)}</Descriptions.Item>
          <Descriptions.Item label="生效日期">{c.effectiveDate}</Descriptions.Item>
          <Descriptions.Item label="保费增减">{premiumDeltaWords(c.premiumDeltaFen)}</Descriptions.Item>
          <Descriptions.Item label="提交时间">{formatTime(c.createdAt)}</Descriptions.Item>
          {c.reviewOpinion ? <Descriptions.Item label="审核意见">{c.reviewOpinion}</Descriptions.Item> : null}
        </Descriptions>
        {!open ? (
          <Alert
            style={{ marginTop: 16 }}
            type="info"
            title={`该申请${c.statusLabel}，无需审核`}
            action={<Button onClick={() => navigate(POLICY_CHANGE_REVIEWS_PATH)}>返回批改审核</Button>}
          />
        ) : null}
      </Card>
      <AuditSection title="变更前 → 变更后">
        <PolicyChangeComparison change={c} />
      </AuditSection>
    </AuditLayout>
  );
}

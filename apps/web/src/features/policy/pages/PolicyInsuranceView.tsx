// 保单详情 (/piibs/projectManage/policyInsuranceView/:id): the policy as issued (facts, coverages, co-insurers),
// its e-policy with the SHA-256 and the public verification, the payments, the application it came from with
// that application's materials (read-only here), the 从业人员名单 (masked) when it has one, the endorsements
// (批单) of a project policy's changes, and the history through payment and issue.
import { applyPath } from '@piibs/shared/project-order';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space, Spin } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';
import { CollectionNotice } from '@/features/application/components/QuoteBreakdown.tsx';
import { PolicyEndorsements } from '@/features/project/components/ChangeSummary.tsx';
import { policyQuery } from '../api.ts';
import { PolicyChanges } from '../components/PolicyChanges.tsx';
import { PolicyInsuredPersons } from '../components/PolicyInsuredPersons.tsx';
import { PolicyLifecycle } from '../components/PolicyLifecycle.tsx';
import {
  DownloadPolicyButton,
  PolicyApplicationFacts,
  PolicyCoinsurerTable,
  PolicyCoverageTable,
  PolicyDocument,
  PolicyFacts,
  PolicyPaymentsTable,
  PolicyStatusTag,
  PolicyTimeline,
} from '../components/PolicySummary.tsx';
import { RenewButton } from '../components/RenewButton.tsx';
import { SupplementSummary } from '../components/SupplementSummary.tsx';
import { POLICY_TEXTS as T } from '../texts.ts';

export default function PolicyInsuranceView() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const query = useQuery({ ...policyQuery(id), enabled: id > 0 });

  if (id > 0 && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (!query.data) {
    const error = serverError(query.error);
    return (
      <Result
        status="warning"
        title={!error || error.status === 404 ? T.missing : error.message}
        extra={<Button onClick={() => navigate(-1)}>{T.back}</Button>}
      />
    );
  }
  const policy = query.data;
  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={
            <Space>
              {T.pageTitle(policy.number)}
              <PolicyStatusTag status={policy.status} label={policy.statusLabel} />
            </Space>
          }
          extra={
            <Space wrap>
              <DownloadPolicyButton policyId={policy.id} number={policy.number} type="primary" />
              <RenewButton policyId={policy.id} endDate={policy.endDate} />
              <Button onClick={() => navigate(-1)}>{T.back}</Button>
            </Space>
          }
        >
          <PolicyFacts policy={policy} />
          <PolicyLifecycle policy={policy} />
        </Card>
        <Card variant="borderless" title={T.coverages}>
          <PolicyCoverageTable coverages={policy.coverages} premiumFen={policy.premiumFen} />
        </Card>
        <PolicyInsuredPersons policyId={policy.id} />
        <Card variant="borderless" title={T.coinsurers}>
          <CollectionNotice rows={policy.coinsurers} />
          <PolicyCoinsurerTable rows={policy.coinsurers} />
        </Card>
        <Card variant="borderless" title={T.documents}>
          <PolicyDocument policy={policy} />
        </Card>
        <PolicyEndorsements
          policyId={policy.id}
          changePath={(id) => applyPath(id, { detail: true, type: 2, view: '2' })}
        />
        <PolicyChanges
          policyId={policy.id}
          applicationId={policy.application.id}
          headcount={policy.headcount}
          open={policy.status !== 'CANCELLED' && policy.status !== 'EXPIRED'}
        />
        <Card variant="borderless" title={T.payments}>
          <PolicyPaymentsTable rows={policy.payments} />
        </Card>
        <SupplementSummary policyId={policy.id} />
        <Card variant="borderless" title={T.application}>
          <PolicyApplicationFacts application={policy.application} />
        </Card>
        <Card variant="borderless" title={T.materials}>
          <MaterialsPanel businessType="application" businessId={policy.application.id} editable={false} />
        </Card>
        <Card variant="borderless" title={T.history}>
          <PolicyTimeline events={policy.events} />
        </Card>
      </Space>
    </div>
  );
}

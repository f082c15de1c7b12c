import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space, Spin } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { policyViewPath } from '@/features/policy/api.ts';
import { ApplicationAnnualOrder } from '@/features/project/components/ApplicationAnnualOrder.tsx';
import { applicationEventsQuery, applicationQuery } from '../api.ts';
import { ApplicationActions } from '../components/ApplicationActions.tsx';
import { ApplicationMaterials } from '../components/ApplicationMaterials.tsx';
import { ApplicationCards } from '../components/ApplicationSummary.tsx';
import { INSURE_LIST_PATH } from '../flows.ts';

/**
 * 查看投保单 (insured/viewInsurance, agent/viewInsurance): read-only, with its history timeline; while the
 * underwriter asks for documents, the materials to upload them in the same screen.
 */
export default function ApplicationViewPage() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const query = useQuery({ ...applicationQuery(id), enabled: id > 0 });
  const events = useQuery({ ...applicationEventsQuery(id), enabled: id > 0 });

  if (id > 0 && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (!query.data) {
    const refusal = serverError(query.error);
    return (
      <Result
        status="warning"
        title={!refusal || refusal.status === 404 ? '投保单不存在或无权查看' : refusal.message}
        extra={<Button onClick={() => navigate(INSURE_LIST_PATH)}>返回投保单列表</Button>}
      />
    );
  }
  const app = query.data;
  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card variant="borderless" title={`投保单 ${app.number}`}>
          <Space wrap>
            <ApplicationActions row={app} size="middle" omitView onCancelled={() => void events.refetch()} />
            <Button onClick={() => navigate(`/piibs/insured/ImageData/${app.id}/application`)}>
              影像资料
            </Button>
            <ApplicationAnnualOrder app={app} />
            {app.policy ? (
              <Button type="primary" onClick={() => navigate(policyViewPath(app.policy!.id))}>
                查看保单 {app.policy.number}
              </Button>
            ) : null}
            <Button onClick={() => navigate(INSURE_LIST_PATH)}>返回投保单列表</Button>
          </Space>
        </Card>
        {app.status === 'PENDING_REVIEW' && app.requestedDocTypes.length ? (
          <Card variant="borderless" title="影像资料">
            <ApplicationMaterials app={app} reader="requested" />
          </Card>
        ) : null}
        <ApplicationCards app={app} events={events.data ?? []} />
      </Space>
    </div>
  );
}

// 二次下单申请 (/piibs/projectManage/apply/:id/:detail/:type/:status): a project declared against an annual order.
//   :id      the secondary order; 0 declares a new one against `?orderId=` (the annual order), or with type 2
//            a change of the approved project `?baseId=`;
//   :detail  'true' read-only, 'false' editable while the declaration is a draft or returned (and yours);
//   :type    1 a new project (新增项目申报); 2 a change (批改): the fields that may change beside the project's
//            values before the change, and the premium difference;
//   :status  the view it opens: 0 申报信息, 1 审核进度, 2 项目保单 — for a change its endorsement (批单)
//            (APPLY_VIEWS in @piibs/shared/project-order).
import {
  APPLY_VIEW_LABELS,
  APPLY_VIEWS,
  type ApplyView,
  applyPath,
  DECLARATION_KIND_LABELS,
  type DeclarationKind,
  orderDetailPath,
} from '@piibs/shared/project-order';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Form, Space, Tabs } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { policyViewPath } from '@/features/policy/api.ts';
import { DownloadPolicyButton, PolicyCovers } from '@/features/policy/components/PolicySummary.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { useTabRecord } from '@/stores/tagsView.ts';
import {
  cancelDeclaration,
  declarationQuery,
  invalidateProjects,
  PROJECT_PERMISSIONS,
  saveDeclaration,
  submitDeclaration,
} from '../api.ts';
import { ChangeForm } from '../components/ChangeForm.tsx';
import { ChangeComparison, EndorsementFacts, EndorsementTable } from '../components/ChangeSummary.tsx';
import {
  DeclarationForm,
  type DeclarationValues,
  toDeclarationFields,
  valuesOf,
} from '../components/DeclarationForm.tsx';
import {
  type Busy,
  centred,
  NewChange,
  NewDeclaration,
  Unavailable,
  useRefusal,
} from '../components/NewDeclaration.tsx';
import {
  DeclarationFacts,
  DeclarationQuote,
  DeclarationStatusTag,
  DeclarationTimeline,
} from '../components/ProjectSummary.tsx';

export default function Apply() {
  const params = useParams();
  const [search] = useSearchParams();
  const id = Number(params.id ?? 0) || 0;
  const readOnly = params.detail === 'true';
  const kind: DeclarationKind = params.type === '2' ? 2 : 1;
  const view: ApplyView = APPLY_VIEWS.includes(params.status as ApplyView)
    ? (params.status as ApplyView)
    : '0';
  const orderId = Number(search.get('orderId') ?? 0) || 0;
  const baseId = Number(search.get('baseId') ?? 0) || 0;

  const title = titleOf(kind);
  if (id === 0 && kind === 1 && !readOnly) return <NewDeclaration orderId={orderId} title={title} />;
  if (id === 0 && kind === 2 && !readOnly && baseId > 0) return <NewChange baseId={baseId} title={title} />;
  if (id === 0)
    return (
      <div style={{ padding: 16 }}>
        <Card variant="borderless" title={title}>
          <Alert
            type="warning"
            showIcon
            title={kind === 2 ? '请从已出单项目的「申请批改」进入项目批改申报' : '请从年度订单进入项目申报'}
          />
        </Card>
      </div>
    );
  return <ExistingDeclaration id={id} readOnly={readOnly} view={view} />;
}

const titleOf = (kind: number) => `二次下单 · ${DECLARATION_KIND_LABELS[kind === 2 ? 2 : 1]}`;

/**
 * One declaration: its information (editable while a draft or returned), review progress and policy — for a
 * change, before → after and its endorsement. The kind is the declaration's own, whatever the route says.
 */
function ExistingDeclaration({ id, readOnly, view }: { id: number; readOnly: boolean; view: ApplyView }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message, modal } = useAppApis();
  const [form] = Form.useForm<DeclarationValues>();
  const { error, setError, show } = useRefusal(form);
  const [busy, setBusy] = useState<Busy>(null);
  const query = useQuery(declarationQuery(id));
  useTabRecord(query.data?.projectName);

  if (query.isPending) return centred;
  if (!query.data) return <Unavailable error={query.error} fallback="二次下单申报不存在" />;
  const d = query.data;
  const kind: DeclarationKind = d.kind === 2 ? 2 : 1;
  const title = titleOf(kind);
  const editable = !readOnly && d.actions.includes('edit');

  const refresh = async () => {
    await invalidateProjects(client);
    await query.refetch();
  };

  const act = async (what: Exclude<Busy, null>) => {
    setError(null);
    let values: DeclarationValues | null = null;
    if (what !== 'cancel') {
      try {
        values = await form.validateFields();
      } catch {
        return;
      }
    }
    setBusy(what);
    try {
      if (what === 'cancel') {
        await cancelDeclaration(d.id, d.version);
        void message.success('申报已撤销');
      } else {
        const saved = await saveDeclaration(d.id, { ...toDeclarationFields(values!), version: d.version });
        if (what === 'submit') {
          await submitDeclaration(saved.id, saved.version);
          void message.success('已提交审核');
          navigate(applyPath(d.id, { detail: true, type: kind, view: '1' }), { replace: true });
        } else void message.success('已保存');
      }
      await refresh();
    } catch (err) {
      if (show(err) === 409 || what === 'submit') await refresh();
    } finally {
      setBusy(null);
    }
  };

  const confirmCancel = () =>
    modal.confirm({
      title: '撤销申报',
      content: `确定撤销「${d.projectName}」的申报吗？撤销后占用的额度将释放，且不能恢复。`,
      okText: '撤销',
      cancelText: '取消',
      onOk: () => act('cancel'),
    });

  const info = editable ? (
    <>
      {kind === 2 && d.base ? (
        <ChangeForm
          key={d.version}
          form={form}
          initialValues={valuesOf(d)}
          base={d.base}
          productId={d.order.productId}
          remainingFen={d.order.remainingFen}
          heldFen={d.reservedFen}
        />
      ) : (
        <DeclarationForm
          key={d.version}
          form={form}
          initialValues={valuesOf(d)}
          productId={d.order.productId}
          remainingFen={d.order.remainingFen}
          heldFen={d.reservedFen}
          order={d.order}
        />
      )}
      <Can code={PROJECT_PERMISSIONS.apply}>
        <Space>
          <Button
            type="primary"
            loading={busy === 'submit'}
            disabled={busy !== null}
            onClick={() => void act('submit')}
          >
            {d.status === 'RETURNED' ? '重新提交' : '提交审核'}
          </Button>
          <Button loading={busy === 'save'} disabled={busy !== null} onClick={() => void act('save')}>
            保存
          </Button>
          <Button danger loading={busy === 'cancel'} disabled={busy !== null} onClick={confirmCancel}>
            撤销申报
          </Button>
        </Space>
      </Can>
    </>
  ) : (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {kind === 2 ? <ChangeComparison declaration={d} /> : null}
      <DeclarationFacts declaration={d} />
      <DeclarationQuote declaration={d} />
    </Space>
  );

  const policy =
    d.policyId && d.policyNumber ? (
      <Space wrap>
        <span>项目保单</span>
        <Link to={policyViewPath(d.policyId)} data-testid="project-policy">
          {d.policyNumber}
        </Link>
        <DownloadPolicyButton policyId={d.policyId} number={d.policyNumber} />
      </Space>
    ) : null;
  const changePath = (declarationId: number) =>
    applyPath(declarationId, { detail: true, type: 2, view: '2' });
  const endorsementView =
    kind === 2 ? (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {policy}
        {d.endorsement ? (
          <EndorsementFacts endorsement={d.endorsement} />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={d.status === 'APPROVED' ? '批单出具中，请稍后刷新' : '审核通过后出具批单'}
          />
        )}
      </Space>
    ) : policy ? (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap>
          {policy}
          {d.actions.includes('change') ? (
            <Can code={PROJECT_PERMISSIONS.apply}>
              <Button onClick={() => navigate(applyPath(0, { type: 2, baseId: d.id }))}>申请批改</Button>
            </Can>
          ) : null}
          {d.openChangeId ? (
            <Link to={applyPath(d.openChangeId, { type: 2, view: '1' })}>未完成的批改申报</Link>
          ) : null}
        </Space>
        {d.policyId ? (
          <Card size="small" title="保险责任">
            <PolicyCovers policyId={d.policyId} />
          </Card>
        ) : null}
        {d.endorsements.length ? (
          <EndorsementTable endorsements={d.endorsements} changePath={changePath} />
        ) : null}
      </Space>
    ) : (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={d.status === 'APPROVED' ? '保单出具中，请稍后刷新' : '审核通过后出具项目保单'}
      />
    );

  const tabs = [
    { key: '0', label: APPLY_VIEW_LABELS['0'], children: info },
    {
      key: '1',
      label: APPLY_VIEW_LABELS['1'],
      children: (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label="当前状态">
              <DeclarationStatusTag status={d.status} label={d.statusLabel} />
            </Descriptions.Item>
            <Descriptions.Item label="审核意见">{d.reviewOpinion ?? '—'}</Descriptions.Item>
          </Descriptions>
          <DeclarationTimeline events={d.events} />
        </Space>
      ),
    },
    { key: '2', label: kind === 2 ? '批单' : APPLY_VIEW_LABELS['2'], children: endorsementView },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={
            <Space>
              {title}
              <DeclarationStatusTag status={d.status} label={d.statusLabel} />
            </Space>
          }
          extra={<Link to={orderDetailPath(d.annualOrderId)}>年度订单 {d.annualOrderNumber}</Link>}
        >
          {d.status === 'RETURNED' && d.reviewOpinion ? (
            <Alert
              type="warning"
              showIcon
              title={`审核意见：${d.reviewOpinion}`}
              description="请按意见修改后重新提交"
              style={{ marginBottom: 16 }}
            />
          ) : null}
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
          <Tabs
            activeKey={view}
            items={tabs}
            onChange={(key) =>
              navigate(applyPath(d.id, { detail: readOnly, type: kind, view: key as ApplyView }), {
                replace: true,
              })
            }
          />
        </Card>
      </Space>
    </div>
  );
}

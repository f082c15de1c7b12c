// A new project declaration against an annual order, or a change (批改) of an approved project: the pages of
// 二次下单申请 before anything is saved (Apply.tsx opens them for id 0). Both create the declaration from the form,
// submit it when asked and open it; `useRefusal` is how any of Apply's pages answers a refusal.
import {
  type AnnualOrderRow,
  applyPath,
  type DeclarationDetail,
  orderDetailPath,
  projectValuesOf,
} from '@piibs/shared/project-order';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, type FormInstance, Result, Space, Spin } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  annualOrderQuery,
  createChange,
  createDeclaration,
  declarationQuery,
  invalidateProjects,
  PROJECT_PERMISSIONS,
  submitDeclaration,
} from '../api.ts';
import { ChangeForm, changeValuesOf, toChangeFields } from './ChangeForm.tsx';
import {
  DECLARATION_FIELD_NAMES,
  DeclarationForm,
  type DeclarationValues,
  newDeclarationValues,
  toDeclarationFields,
} from './DeclarationForm.tsx';
import { QuotaSummary } from './ProjectSummary.tsx';

export const centred = (
  <div style={{ padding: 48, textAlign: 'center' }}>
    <Spin />
  </div>
);

/** A declaration or order that cannot be had: why (the server's refusal, else `fallback`), with 返回. */
export function Unavailable({ error, fallback }: { error: unknown; fallback: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={serverError(error)?.message ?? fallback}
      extra={<Button onClick={() => navigate(-1)}>返回</Button>}
    />
  );
}

export type Busy = 'save' | 'submit' | 'cancel' | null;

/** How the page answers a refusal: under the field it names, else in the page's alert. */
export function useRefusal(form: FormInstance<DeclarationValues>) {
  const location = useLocation();
  const [error, setError] = useState<string | null>(
    (location.state as { error?: string } | null)?.error ?? null,
  );
  const show = (err: unknown): number | null => {
    const refusal = serverError(err);
    if (!refusal || refusal.status === 401) return null;
    if (!applyServerErrors(form, err, DECLARATION_FIELD_NAMES)) setError(refusal.message);
    return refusal.status;
  };
  return { error, setError, show };
}

/**
 * 保存草稿 / 提交审核 of a new declaration or change: creates it from the form, submits it when asked, and opens
 * it. Saved but not submitted (e.g. the quota ran out): opens the draft and says why there.
 */
function useCreateDeclaration(
  form: FormInstance<DeclarationValues>,
  refusal: ReturnType<typeof useRefusal>,
  type?: 2,
) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [busy, setBusy] = useState<Busy>(null);
  const run = async (
    andSubmit: boolean,
    create: (values: DeclarationValues) => Promise<DeclarationDetail>,
  ) => {
    refusal.setError(null);
    let values: DeclarationValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(andSubmit ? 'submit' : 'save');
    let created: DeclarationDetail | null = null;
    try {
      created = await create(values);
      if (andSubmit) await submitDeclaration(created.id, created.version);
      await invalidateProjects(client);
      void message.success(andSubmit ? '已提交审核' : '已保存草稿');
      navigate(
        applyPath(created.id, {
          ...(type ? { type } : {}),
          ...(andSubmit ? { detail: true, view: '1' } : {}),
        }),
        {
          replace: true,
        },
      );
    } catch (err) {
      if (created) {
        await invalidateProjects(client);
        navigate(applyPath(created.id, type ? { type } : {}), {
          replace: true,
          state: { error: serverError(err)?.message },
        });
      } else refusal.show(err);
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}

/**
 * The page of a new declaration or change: the annual order's quota, then the form with the refusal above it and
 * 提交审核 / 保存草稿 / 返回 below — or, instead, why nothing can be filed here.
 */
function CreatePage({
  head,
  formTitle,
  error,
  blocked,
  busy,
  onRun,
  onBack,
  children,
}: {
  head: { title: string; extra: ReactNode; order: AnnualOrderRow };
  formTitle: string;
  error: string | null;
  blocked: ReactNode;
  busy: Busy;
  onRun: (andSubmit: boolean) => void;
  onBack: () => void;
  children: ReactNode;
}) {
  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card variant="borderless" title={head.title} extra={head.extra}>
          <QuotaSummary order={head.order} />
        </Card>
        <Card variant="borderless" title={formTitle}>
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
          {blocked ?? (
            <>
              {children}
              <Can code={PROJECT_PERMISSIONS.apply}>
                <Space>
                  <Button
                    type="primary"
                    loading={busy === 'submit'}
                    disabled={busy !== null}
                    onClick={() => onRun(true)}
                  >
                    提交审核
                  </Button>
                  <Button loading={busy === 'save'} disabled={busy !== null} onClick={() => onRun(false)}>
                    保存草稿
                  </Button>
                  <Button onClick={onBack}>返回</Button>
                </Space>
              </Can>
            </>
          )}
        </Card>
      </Space>
    </div>
  );
}

/** A change (批改) of an approved project: its values beside the fields, 保存草稿 / 提交审核. */
export function NewChange({ baseId, title }: { baseId: number; title: string }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<DeclarationValues>();
  const refusal = useRefusal(form);
  const { error } = refusal;
  const save = useCreateDeclaration(form, refusal, 2);
  const { busy } = save;
  const query = useQuery(declarationQuery(baseId));

  if (query.isPending) return centred;
  if (!query.data) return <Unavailable error={query.error} fallback="二次下单申报不存在" />;
  const p = query.data;

  const run = (andSubmit: boolean) =>
    save.run(andSubmit, (values) => createChange(p.id, toChangeFields(values)));

  let blocked: ReactNode = null;
  if (p.openChangeId)
    blocked = (
      <Alert
        type="warning"
        showIcon
        title="该项目已有未完成的批改申报，请先完成或撤销后再发起"
        action={<Link to={applyPath(p.openChangeId, { type: 2 })}>查看批改申报</Link>}
      />
    );
  else if (!p.actions.includes('change'))
    blocked = (
      <Alert
        type="warning"
        showIcon
        title="该项目当前不能批改：只有年度订单的施工企业（或其代理人）可对已出单、仍在保险期间内的项目申请批改，且年度订单未关闭"
      />
    );

  return (
    <CreatePage
      head={{
        title: `${title}：${p.projectName}`,
        extra: (
          <Space>
            <Link to={applyPath(p.id, { detail: true, view: '2' })}>原项目 {p.number}</Link>
            <Link to={orderDetailPath(p.annualOrderId)}>年度订单 {p.annualOrderNumber}</Link>
          </Space>
        ),
        order: p.order,
      }}
      formTitle="批改信息"
      error={error}
      blocked={blocked}
      busy={busy}
      onRun={(andSubmit) => void run(andSubmit)}
      onBack={() => navigate(-1)}
    >
      <ChangeForm
        form={form}
        initialValues={changeValuesOf(p)}
        base={projectValuesOf(p)}
        productId={p.order.productId}
        remainingFen={p.order.remainingFen}
      />
    </CreatePage>
  );
}

/** A new declaration against an annual order: the quota, the form, 保存草稿 / 提交审核. */
export function NewDeclaration({ orderId, title }: { orderId: number; title: string }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<DeclarationValues>();
  const refusal = useRefusal(form);
  const { error } = refusal;
  const save = useCreateDeclaration(form, refusal);
  const { busy } = save;
  const order = useQuery({ ...annualOrderQuery(orderId), enabled: orderId > 0 });

  if (orderId <= 0) return <Result status="warning" title="请从年度订单进入项目申报" />;
  if (order.isPending) return centred;
  if (!order.data) return <Unavailable error={order.error} fallback="年度订单不存在" />;
  const o = order.data;

  const run = (andSubmit: boolean) =>
    save.run(andSubmit, (values) => createDeclaration(o.id, { kind: 1, ...toDeclarationFields(values) }));

  return (
    <CreatePage
      head={{ title, extra: <Link to={orderDetailPath(o.id)}>年度订单 {o.number}</Link>, order: o }}
      formTitle="项目信息"
      error={error}
      blocked={
        o.canDeclare ? null : (
          <Alert
            type="warning"
            showIcon
            title={`该年度订单${o.state === 'EXPIRED' ? '已到期' : ''}不可申报项目：只有年度订单的施工企业（或其代理人）可在订单期间内申报`}
          />
        )
      }
      busy={busy}
      onRun={(andSubmit) => void run(andSubmit)}
      onBack={() => navigate(orderDetailPath(o.id))}
    >
      <DeclarationForm
        form={form}
        initialValues={newDeclarationValues()}
        productId={o.productId}
        remainingFen={o.remainingFen}
        order={o}
      />
    </CreatePage>
  );
}

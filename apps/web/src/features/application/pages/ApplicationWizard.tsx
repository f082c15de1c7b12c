import {
  APPLICATION_STATUS_LABELS,
  defaultEnd,
  EDITABLE_STATUSES,
  earliestStart,
  POLICYHOLDER_TYPE_LABELS,
  POLICYHOLDER_TYPES,
  type PolicyholderType,
} from '@piibs/shared/application-status';
import type { CustomerRow } from '@piibs/shared/customer';
import { MATERIAL_DOC_DICT, materialsProblem } from '@piibs/shared/material';
import { problemText } from '@piibs/shared/problem';
import type { AvailableProduct } from '@piibs/shared/product';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Radio, Result, Space, Spin } from 'antd';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { invalidateResource, serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { dictLabel, useDictState } from '@/lib/dict.tsx';
import {
  applicationInsuredQuery,
  applicationQuery,
  applicationsResource,
  approvedCustomersQuery,
  availableProductsQuery,
  createApplication,
  type DraftAnswer,
  fetchApplication,
  importInsuredList,
  replaceCoinsurers,
  saveDraft,
  saveInsuredList,
  submitApplication,
} from '../api.ts';
import { ApplicationStatusTag } from '../components/ApplicationStatusTag.tsx';
import { sharesProblem } from '../components/coinsurance-shares.ts';
import { InsuranceSection } from '../components/InsuranceSection.tsx';
import { useMissingMaterials } from '../components/missing-materials.ts';
import {
  NAMED_TEXTS,
  type NamedRow,
  personsOf,
  refusalMessages,
  rowProblems,
  rowsChanged,
  rowsOf,
  serverRowProblems,
} from '../components/named-insured-rows.ts';
import { PolicySection } from '../components/PolicySection.tsx';
import { ProjectSection } from '../components/ProjectSection.tsx';
import { WizardSteps } from '../components/WizardSteps.tsx';
import {
  FLOWS,
  type FlowName,
  INSURE_LIST_PATH,
  offersIndividual,
  policyholderTypeOf,
  type StepKind,
  stepPath,
  stepsOf,
} from '../flows.ts';
import { draftFieldsOf, REQUEST_FIELD_NAMES, sharesOf, valuesOf, type WizardValues } from '../values.ts';

// Sections of later steps come with those steps: the first step loads neither the list's table, the
// coinsurers' table nor the materials' uploads; an application's summary (a timeline, descriptions) only where
// one is shown.
const CoinsuranceSection = lazy(() =>
  import('../components/CoinsuranceSection.tsx').then((m) => ({ default: m.CoinsuranceSection })),
);
const ApplicationCards = lazy(() =>
  import('../components/ApplicationSummary.tsx').then((m) => ({ default: m.ApplicationCards })),
);
const ApplicationPremium = lazy(() =>
  import('../components/ApplicationSummary.tsx').then((m) => ({ default: m.ApplicationPremium })),
);
const NamedInsuredSection = lazy(() =>
  import('../components/NamedInsuredSection.tsx').then((m) => ({ default: m.NamedInsuredSection })),
);
const ApplicationMaterials = lazy(() =>
  import('../components/ApplicationMaterials.tsx').then((m) => ({ default: m.ApplicationMaterials })),
);
const SuccessStep = lazy(() =>
  import('../components/SuccessStep.tsx').then((m) => ({ default: m.SuccessStep })),
);

/**
 * Input typed on a step and not yet saved (Back after a refused save, a failed call): restored when the step is
 * shown again, so going back and forth never loses input. Saved drafts live on the server (resume anywhere).
 */
const unsaved = new Map<string, WizardValues>();

/**
 * One step of an application wizard: `<flow>/<step>/:id/:policyholderType`. A new application (`:id` 0) takes
 * the policyholder type from the URL (chosen on the first step); an existing one has its own, and the URL
 * follows it.
 */
export function ApplicationWizard({ flow: flowName, step }: { flow: FlowName; step: string }) {
  const flow = FLOWS[flowName];
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const urlType = policyholderTypeOf(params.policyholderType);
  const navigate = useNavigate();

  const query = useQuery({ ...applicationQuery(id), enabled: id > 0 });
  const products = useQuery(availableProductsQuery());
  const app = id > 0 ? query.data : undefined;
  // The step's form is drawn in a deferred render once its data is there: React draws it in slices, between which
  // the browser can answer the user, instead of in one long task (about a second on a slow phone).
  const ready = useDeferredValue(!((id > 0 && query.isPending) || products.isPending));
  // A new application's first step lists the customers (the applicant) as soon as the products are there: both
  // are asked at once, not the customers once the products have answered and the form is drawn.
  const client = useQueryClient();
  useEffect(() => {
    if (id === 0) void client.prefetchQuery(approvedCustomersQuery(''));
  }, [id, client]);

  if (!ready) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (id > 0 && query.isError) {
    const refusal = serverError(query.error);
    return (
      <Result
        status="warning"
        title={refusal?.status === 404 || !refusal ? '投保单不存在或无权查看' : refusal.message}
        extra={<Button onClick={() => navigate(INSURE_LIST_PATH)}>返回投保单列表</Button>}
      />
    );
  }

  const type: PolicyholderType = app?.policyholderType ?? (offersIndividual(flow) ? urlType : 1);
  if (type !== urlType || (params.policyholderType !== undefined && params.policyholderType !== String(type)))
    return <Navigate replace to={stepPath(flow, step, id, type)} />;

  const steps = stepsOf(flow, app?.allowsCoinsurance ?? true);
  const index = steps.findIndex((s) => s.path === step);
  const current = steps[index];
  if (!current) return <Result status="404" title="没有这一步" />;
  if (id === 0 && index > 0) {
    return (
      <Result
        status="info"
        title="请先填写投保信息"
        extra={
          <Button type="primary" onClick={() => navigate(stepPath(flow, steps[0]!.path, 0, type))}>
            填写投保信息
          </Button>
        }
      />
    );
  }

  const isSuccess = current.kinds.includes('success');
  const editable = !app || EDITABLE_STATUSES.includes(app.status);
  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card variant="borderless">
          <WizardSteps
            titles={steps.map((s) => s.title)}
            current={isSuccess && app?.status === 'PENDING_REVIEW' ? steps.length : index}
          />
        </Card>
        {isSuccess && app ? (
          <Suspense fallback={<Spin />}>
            <SuccessStep app={app} flow={flow} />
          </Suspense>
        ) : app && !editable ? (
          <>
            <Alert
              type="info"
              showIcon
              title={`投保单${app.number}当前状态为「${APPLICATION_STATUS_LABELS[app.status]}」，不能再修改。`}
            />
            <Suspense fallback={<Spin />}>
              <ApplicationCards app={app} />
            </Suspense>
          </>
        ) : (
          <StepForm
            key={`${id}:${step}`}
            flowName={flowName}
            stepIndex={index}
            policyholderType={type}
            app={app}
            products={products.data ?? []}
            onReload={async () => (await query.refetch()).data}
          />
        )}
      </Space>
    </div>
  );
}

function StepForm({
  flowName,
  stepIndex,
  policyholderType: type,
  app,
  products,
  onReload,
}: {
  flowName: FlowName;
  stepIndex: number;
  policyholderType: PolicyholderType;
  app: DraftAnswer | undefined;
  products: AvailableProduct[];
  onReload(): Promise<DraftAnswer | undefined>;
}) {
  const flow = FLOWS[flowName];
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [form] = Form.useForm<WizardValues>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'next' | 'back' | null>(null);
  const [pickedCustomer, setPickedCustomer] = useState<CustomerRow | undefined>(undefined);
  const steps = stepsOf(flow, app?.allowsCoinsurance ?? true);
  const step = steps[stepIndex]!;
  const kinds = step.kinds;
  const cacheKey = `${flow.name}:${app?.id ?? 0}:${step.path}`;
  const productId = Form.useWatch('productId', form);
  const product = products.find((p) => p.id === (app?.productId ?? productId));
  const customer = app?.customer ?? pickedCustomer;
  const latest = useRef(app);
  latest.current = app;
  const docTypes = useDictState(app?.requestedDocTypes.length ? MATERIAL_DOC_DICT : undefined).options;
  const materials = useMissingMaterials(kinds.includes('confirm') ? app : undefined);
  const confirmStep = steps.find((s) => s.kinds.includes('confirm'));
  // 从业人员名单: a product that asks for it has the list on the policy step; the headcount follows it.
  const namedRequired = Boolean(product?.namedInsuredRequired);
  const showsNamed = namedRequired && !!app && kinds.includes('policy');
  const namedList = useQuery({ ...applicationInsuredQuery(app?.id ?? 0), enabled: namedRequired && !!app });
  const [typedRows, setTypedRows] = useState<NamedRow[] | null>(null);
  const namedRows = typedRows ?? (namedList.data ? rowsOf(namedList.data) : []);
  const [namedShowAll, setNamedShowAll] = useState(false);
  const [namedServer, setNamedServer] = useState<Map<string, string>>(() => new Map());

  const initial = useMemo<WizardValues>(
    () => ({
      ...(app
        ? valuesOf(app)
        : { startDate: earliestStart(), endDate: defaultEnd(earliestStart()), highRisk: false }),
      ...unsaved.get(cacheKey),
    }),
    [app, cacheKey],
  );

  // A product picked for a new draft brings its defaults (the death/disability limit, the minimum ratio).
  const onProduct = useCallback(() => {
    if (app) return;
    const p = products.find((x) => x.id === form.getFieldValue('productId'));
    if (!p) return;
    const death = p.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
    form.setFieldsValue({
      perPersonLimitFen: death?.perPersonLimitFen ?? p.rating?.limitTiersFen[0] ?? null,
      preventionRatio: String(p.preventionRatioMin / 1_000_000),
      coverages: [],
    });
  }, [app, products, form]);

  useEffect(() => {
    if (!app && pickedCustomer && !form.getFieldValue('headcount'))
      form.setFieldValue('headcount', pickedCustomer.headcount || null);
  }, [app, pickedCustomer, form]);

  const show = async (err: unknown) => {
    const refusal = serverError(err);
    if (!refusal || refusal.status === 401) return;
    if (refusal.status === 409) {
      const fresh = await onReload();
      if (fresh) form.setFieldsValue(valuesOf(fresh));
      unsaved.delete(cacheKey);
      setError(`${refusal.message}（已重新载入服务器上的投保单，请检查后重试）`);
      return;
    }
    if (!applyServerErrors(form, err, REQUEST_FIELD_NAMES)) setError(refusal.message);
  };

  /** Saves this step's fields (and the co-insurers) and answers the application as the server holds it. */
  const save = async (values: WizardValues): Promise<DraftAnswer> => {
    let current = latest.current;
    if (!current) {
      current = await createApplication({
        productId: values.productId!,
        customerId: values.customerId!,
        policyholderType: type,
        channel: flow.channel,
      });
    }
    const fields = draftFieldsOf(values, kinds as StepKind[], type);
    if (Object.keys(fields).length) {
      current = await saveDraft(current.id, { ...fields, version: current.version });
    }
    if (showsNamed && typedRows && rowsChanged(typedRows, namedList.data)) {
      try {
        await saveInsuredList(current.id, { version: current.version, persons: personsOf(typedRows) });
      } catch (err) {
        setNamedServer(serverRowProblems(typedRows, refusalMessages(err)).byRow);
        throw err;
      }
      setNamedServer(new Map());
      current = await fetchApplication(current.id);
      await client.invalidateQueries({ queryKey: applicationInsuredQuery(current.id).queryKey });
      setTypedRows(null);
    }
    if (kinds.includes('coinsurance') && current.allowsCoinsurance) {
      const shares = sharesOf(values);
      const before = current.coinsurers.map((c) => `${c.insurerCode}:${c.lead}:${c.shareText}`).join();
      const after = shares.map((s) => `${s.insurerCode}:${s.lead}:${s.share}`).join();
      if (before !== after) {
        current = await replaceCoinsurers(current.id, { version: current.version, shares });
      }
    }
    client.setQueryData(applicationQuery(current.id).queryKey, current);
    return current;
  };

  const next = async () => {
    setError(null);
    let values: WizardValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    values = { ...form.getFieldsValue(true), ...values };
    if (showsNamed) {
      setNamedShowAll(true);
      if (rowProblems(namedRows).size) {
        setError(NAMED_TEXTS.fix);
        return;
      }
      if (namedRows.length === 0) {
        setError(NAMED_TEXTS.required);
        return;
      }
    }
    if (kinds.includes('coinsurance')) {
      const problem = sharesProblem(values, latest.current?.issuerLeads ?? true);
      if (problem) {
        setError(problem);
        return;
      }
    }
    setBusy('next');
    try {
      let saved = await save(values);
      unsaved.delete(cacheKey);
      const submit = kinds.includes('confirm');
      // The documents the submission needs, named as the server would refuse them.
      const lacking = submit && materials.loaded ? materialsProblem(materials.missing('SUBMIT')) : null;
      if (lacking) {
        setError(problemText(lacking));
        return;
      }
      if (submit) {
        saved = await submitApplication(saved.id, saved.version);
        client.setQueryData(applicationQuery(saved.id).queryKey, saved);
        void message.success('投保单已提交审核');
      }
      await invalidateResource(client, applicationsResource);
      const target = stepsOf(flow, saved.allowsCoinsurance)[stepIndex + 1];
      if (target) navigate(stepPath(flow, target.path, saved.id, type));
      else if (!submit) void message.success('已保存');
    } catch (err) {
      unsaved.set(cacheKey, form.getFieldsValue(true));
      await show(err);
    } finally {
      setBusy(null);
    }
  };

  const back = async () => {
    const previous = steps[stepIndex - 1];
    if (!previous || !app) return;
    const values = { ...form.getFieldsValue(true) } as WizardValues;
    setBusy('back');
    try {
      // Keep what was typed: save it when it is valid, else hold it for when the step is shown again.
      await form.validateFields();
      await save(values);
      unsaved.delete(cacheKey);
    } catch {
      unsaved.set(cacheKey, values);
    } finally {
      setBusy(null);
    }
    navigate(stepPath(flow, previous.path, app.id, type));
  };

  /** An .xlsx replaces the saved list at once (version-checked); the draft is loaded again (headcount, premium). */
  const importNamed = async (file: File): Promise<number> => {
    const current = latest.current!;
    const list = await importInsuredList(current.id, current.version, file);
    client.setQueryData(applicationInsuredQuery(current.id).queryKey, list);
    setTypedRows(null);
    setNamedServer(new Map());
    await onReload();
    return list.count;
  };

  const isLast = kinds.includes('confirm');
  return (
    <Form<WizardValues>
      form={form}
      layout="vertical"
      name={`application-${step.path}`}
      initialValues={initial}
      scrollToFirstError
      onValuesChange={(changed: Partial<WizardValues>) => {
        if (error) setError(null);
        if ('productId' in changed) onProduct();
      }}
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {app?.status === 'RETURNED' && app.reviewOpinion ? (
          <Alert
            type="warning"
            showIcon
            title="投保单已被退回，请按审核意见修改后重新提交"
            description={
              <>
                <div>审核意见：{app.reviewOpinion}</div>
                {app.requestedDocTypes.length ? (
                  <div>
                    需补充影像资料：{app.requestedDocTypes.map((t) => dictLabel(docTypes, t) || t).join('、')}
                    （在「{confirmStep?.title}」一步上传）
                  </div>
                ) : null}
              </>
            }
          />
        ) : null}
        {error ? <Alert type="error" showIcon role="alert" title={error} /> : null}
        <Card
          variant="borderless"
          title={step.title}
          extra={
            app ? (
              <Space>
                {app.number}
                <ApplicationStatusTag status={app.status} />
              </Space>
            ) : null
          }
        >
          {!app && stepIndex === 0 && offersIndividual(flow) ? (
            <Form.Item label="投保人类型">
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                value={type}
                options={POLICYHOLDER_TYPES.map((value) => ({
                  value,
                  label: POLICYHOLDER_TYPE_LABELS[value],
                }))}
                onChange={(e) => navigate(stepPath(flow, step.path, 0, e.target.value), { replace: true })}
              />
            </Form.Item>
          ) : null}
          {kinds.includes('insurance') ? (
            <InsuranceSection
              form={form}
              flow={flow}
              policyholderType={type}
              isNew={!app}
              products={products}
              product={product}
              customer={customer}
              onCustomer={setPickedCustomer}
              namedCount={namedRequired ? (app ? (namedList.data?.count ?? null) : null) : undefined}
            />
          ) : null}
          {kinds.includes('project') ? (
            <ProjectSection form={form} product={product} customer={customer} />
          ) : null}
          {kinds.includes('policy') ? <PolicySection policyholderType={type} /> : null}
        </Card>
        {showsNamed ? (
          <Card variant="borderless">
            <Suspense fallback={<Spin />}>
              <NamedInsuredSection
                rows={namedRows}
                onRows={(rows) => {
                  setTypedRows(rows);
                  if (error) setError(null);
                }}
                showAll={namedShowAll}
                serverProblems={namedServer}
                onImport={importNamed}
                disabled={busy !== null}
              />
            </Suspense>
          </Card>
        ) : null}
        {kinds.includes('coinsurance') && app ? (
          <Card variant="borderless" title={flow.name === 'epinsure' ? '共保/联保信息' : '共保信息'}>
            <Suspense fallback={<Spin />}>
              <CoinsuranceSection
                form={form}
                allowed={app.allowsCoinsurance}
                issuerName={app.issuerName}
                issuerLeads={app.issuerLeads}
                premiumFen={app.quote?.premiumFen ?? null}
                preventionFeeFen={app.quote?.preventionFeeFen ?? null}
              />
            </Suspense>
          </Card>
        ) : null}
        {kinds.includes('confirm') && app ? (
          <>
            <Card variant="borderless" title="确认保费信息">
              {app.quoteProblem ? (
                <Alert type="warning" showIcon title={app.quoteProblem} style={{ marginBottom: 16 }} />
              ) : null}
              <Suspense fallback={<Spin />}>
                <ApplicationPremium app={app} coinsurers={!kinds.includes('coinsurance')} />
              </Suspense>
            </Card>
            <Card variant="borderless" title="影像资料">
              <Suspense fallback={<Spin />}>
                <ApplicationMaterials app={app} reader="submit" />
              </Suspense>
            </Card>
          </>
        ) : null}
        <Space>
          {stepIndex > 0 ? (
            <Button onClick={() => void back()} loading={busy === 'back'} disabled={busy === 'next'}>
              上一步
            </Button>
          ) : null}
          <Button
            type="primary"
            onClick={() => void next()}
            loading={busy === 'next'}
            disabled={busy === 'back'}
          >
            {isLast ? '提交审核' : '下一步'}
          </Button>
          <Button onClick={() => navigate(INSURE_LIST_PATH)} disabled={busy !== null}>
            返回投保单列表
          </Button>
        </Space>
      </Space>
    </Form>
  );
}

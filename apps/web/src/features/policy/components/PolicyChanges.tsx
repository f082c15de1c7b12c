// 批改与退保 on the policy page: the policy's endorsement and cancellation history (before → after in words, the
// premium delta as money, the 批单 to download), the policyholder's requests (批改: headcount — or, for a policy
// with a 从业人员名单, the people added and removed, the headcount following — contact, address;
// 退保: a reason the product accepts, with the proving document), paying an additional premium at the cashier,
// resubmitting a returned request; an underwriter opens a request waiting for review on its page (批改审核).
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { insuredPersonProblem } from '@piibs/shared/named-insured';
import {
  CANCELLATION_REASON_LABELS,
  CANCELLATION_REASONS,
  type CancellationReason,
  type PolicyChangeView,
  policyChangeAuditPath,
} from '@piibs/shared/policy-change';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { errorMessage } from '@/components/crud/resource.ts';
import { materialsQuery } from '@/components/materials/api.ts';
import { downloadEndorsementPdf } from '@/features/project/api.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useCan } from '@/lib/permission.tsx';
import {
  isSafeCashierUrl,
  payPolicyChange,
  policyChangesQuery,
  policyInsuredQuery,
  resubmitPolicyChange,
  submitCancellation,
  submitEndorsement,
} from '../api.ts';

const key = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export const CHANGE_TEXTS = Object.freeze({
  title: '批改与退保',
  endorse: '申请批改',
  cancel: '申请退保',
  none: '暂无批改或退保记录',
  number: '申请号',
  kind: '类型',
  status: '状态',
  effective: '生效日期',
  changes: '变更内容',
  delta: '保费增减',
  actions: '操作',
  download: '下载批单',
  pay: '补缴保费',
  resubmit: '重新提交',
  review: '审核',
  payBy: (at: string) => `请于 ${formatTime(at)} 前补缴，逾期批改失效`,
  opinion: '审核意见',
  headcount: '参保人数',
  contactName: '联系人',
  contactPhone: '联系电话',
  address: '被保险人地址',
  reason: '退保原因',
  proof: '证明材料',
  proofHelp: '企业关闭、破产、注销或停业须选择已上传的证明文件（如注销通知书）',
  note: '说明',
  refunded: (fen: number) => `已退还 ${formatFen(fen)}`,
  earned: (fen: number, basis: string) => `已赚保费 ${formatFen(fen)}（${basis}）`,
  sent: '申请已提交，等待核保',
  addPersons: '增加人员',
  removePersons: '减少人员',
  addOne: '添加一人',
  personName: '姓名',
  personId: '身份证号码',
  listed: (n: number) => `现有 ${n} 人；参保人数随名单增减`,
  personsLine: (label: string, people: { name: string; idNumberMasked: string }[]) =>
    `${label}：${people.map((p) => `${p.name}（${p.idNumberMasked}）`).join('、')}`,
  decided: '已处理',
});
const T = CHANGE_TEXTS;

interface Props {
  policyId: number;
  applicationId: number;
  headcount: number | null;
  /** The policy can still be changed (not cancelled or expired). */
  open: boolean;
}

export function PolicyChanges({ policyId, applicationId, headcount, open }: Props) {
  const { message } = useAppApis();
  const client = useQueryClient();
  const query = useQuery(policyChangesQuery(policyId));
  const canEdit = useCan(['application:edit']);
  const canReview = useCan(['application:review']);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'endorse' | 'cancel' | null>(null);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['policy'] });
  };
  const act = useMutation({
    mutationFn: (f: () => Promise<unknown>) => f(),
    onSuccess: () => {
      message.success(T.decided);
      refresh();
    },
    onError: (e) => message.error(errorMessage(e)),
  });
  const rows = query.data ?? [];
  const busy = rows.some((r) =>
    ['PENDING_REVIEW', 'RETURNED', 'PENDING_PAYMENT', 'REFUNDING'].includes(r.status),
  );

  return (
    <Card
      variant="borderless"
      title={T.title}
      extra={
        canEdit && open && !busy ? (
          <Space>
            <Button onClick={() => setDialog('endorse')}>{T.endorse}</Button>
            <Button danger onClick={() => setDialog('cancel')}>
              {T.cancel}
            </Button>
          </Space>
        ) : null
      }
    >
      <DetailTable<PolicyChangeView>
        noun="批改与退保申请"
        rowKey="id"
        size="small"
        loading={query.isPending}
        dataSource={rows}
        locale={{ emptyText: T.none }}
        columns={[
          { title: T.number, dataIndex: 'number' },
          { title: T.kind, render: (_, r) => r.kindLabel + (r.reasonLabel ? `（${r.reasonLabel}）` : '') },
          { title: T.status, render: (_, r) => <Tag>{r.statusLabel}</Tag> },
          { title: T.effective, dataIndex: 'effectiveDate' },
          {
            title: T.changes,
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                {r.changes.map((c) => (
                  <span key={c.field}>
                    {c.label}：{c.before} → {c.after}
                  </span>
                ))}
                {r.persons?.added.length ? <span>{T.personsLine(T.addPersons, r.persons.added)}</span> : null}
                {r.persons?.removed.length ? (
                  <span>{T.personsLine(T.removePersons, r.persons.removed)}</span>
                ) : null}
                {r.earnedFen !== null && r.basis ? <span>{T.earned(r.earnedFen, r.basis)}</span> : null}
                {r.reviewOpinion ? (
                  <span>
                    {T.opinion}：{r.reviewOpinion}
                  </span>
                ) : null}
              </Space>
            ),
          },
          {
            title: T.delta,
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                <span>{r.premiumDeltaText}</span>
                {r.refundedFen > 0 ? <span>{T.refunded(r.refundedFen)}</span> : null}
                {r.status === 'PENDING_PAYMENT' && r.payExpiresAt ? (
                  <span>{T.payBy(r.payExpiresAt)}</span>
                ) : null}
              </Space>
            ),
          },
          {
            key: 'actions',
            title: T.actions,
            render: (_, r) => (
              <Space wrap>
                {r.endorsementId && r.endorsementNumber ? (
                  <Button
                    size="small"
                    onClick={() => void downloadEndorsementPdf(r.endorsementId!, r.endorsementNumber!)}
                  >
                    {T.download}
                  </Button>
                ) : null}
                {canEdit && r.status === 'PENDING_PAYMENT' ? (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() =>
                      act.mutate(async () => {
                        const { cashierUrl } = await payPolicyChange(r.id);
                        if (isSafeCashierUrl(cashierUrl)) window.location.assign(cashierUrl);
                      })
                    }
                  >
                    {T.pay} {formatFen(r.premiumDeltaFen)}
                  </Button>
                ) : null}
                {canEdit && r.status === 'RETURNED' ? (
                  <Button
                    size="small"
                    onClick={() => act.mutate(() => resubmitPolicyChange(r.id, r.version))}
                  >
                    {T.resubmit}
                  </Button>
                ) : null}
                {canReview && r.status === 'PENDING_REVIEW' ? (
                  <Button size="small" type="primary" onClick={() => navigate(policyChangeAuditPath(r.id))}>
                    {T.review}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {dialog === 'endorse' ? (
        <EndorseDialog
          policyId={policyId}
          headcount={headcount}
          onClose={(done) => {
            setDialog(null);
            if (done) refresh();
          }}
        />
      ) : null}
      {dialog === 'cancel' ? (
        <CancelDialog
          policyId={policyId}
          applicationId={applicationId}
          onClose={(done) => {
            setDialog(null);
            if (done) refresh();
          }}
        />
      ) : null}
    </Card>
  );
}

function useSubmit(onClose: (done: boolean) => void) {
  const { message } = useAppApis();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const run = async (f: () => Promise<unknown>) => {
    setSaving(true);
    setError(null);
    try {
      await f();
      message.success(T.sent);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return { error, saving, run };
}

function EndorseDialog(props: {
  policyId: number;
  headcount: number | null;
  onClose: (done: boolean) => void;
}) {
  const [form] = Form.useForm<EndorseValues>();
  const [idempotencyKey] = useState(key);
  const { error, saving, run } = useSubmit(props.onClose);
  // A policy with a 从业人员名单 changes its people, not a bare headcount.
  const named = useQuery(policyInsuredQuery(props.policyId));
  const current = (named.data?.persons ?? []).filter((p) => !p.removedOn);
  const submit = async () => {
    let v: EndorseValues;
    try {
      v = await form.validateFields();
    } catch {
      return; // each field shows its own message
    }
    const added = (v.addPersons ?? []).map((p) => ({
      name: (p.name ?? '').trim(),
      idNumber: (p.idNumber ?? '').trim(),
    }));
    const body = {
      effectiveDate: v.effectiveDate,
      idempotencyKey,
      ...(v.headcount && !current.length ? { headcount: v.headcount } : {}),
      ...(added.length ? { addPersons: added } : {}),
      ...(v.removePersons?.length ? { removePersons: v.removePersons } : {}),
      ...(v.contactName ? { contactName: v.contactName } : {}),
      ...(v.contactPhone ? { contactPhone: v.contactPhone } : {}),
      ...(v.insuredAddress ? { insuredAddress: v.insuredAddress } : {}),
    };
    await run(() => submitEndorsement(props.policyId, body));
  };
  return (
    <Modal open title={T.endorse} onCancel={() => props.onClose(false)} onOk={submit} confirmLoading={saving}>
      <Form form={form} layout="vertical" initialValues={{ effectiveDate: shanghaiToday() }}>
        <Form.Item
          name="effectiveDate"
          label={T.effective}
          rules={[{ required: true, message: `请填写${T.effective}` }]}
        >
          <Input type="date" />
        </Form.Item>
        {current.length ? (
          <>
            <Form.Item name="removePersons" label={T.removePersons} extra={T.listed(current.length)}>
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                options={current.map((p) => ({
                  value: p.sort,
                  label: `${p.sort}. ${p.name}（${p.idNumberMasked}）`,
                }))}
              />
            </Form.Item>
            <AddedPersons />
          </>
        ) : props.headcount && !named.isPending ? (
          <Form.Item name="headcount" label={T.headcount} extra={`现为 ${props.headcount} 人`}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        <Form.Item name="contactName" label={T.contactName}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="contactPhone" label={T.contactPhone}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="insuredAddress" label={T.address}>
          <Input maxLength={200} />
        </Form.Item>
        {error ? (
          <div role="alert" style={{ color: '#ff4d4f' }}>
            {error}
          </div>
        ) : null}
      </Form>
    </Modal>
  );
}

interface EndorseValues {
  effectiveDate: string;
  headcount?: number;
  contactName?: string;
  contactPhone?: string;
  insuredAddress?: string;
  addPersons?: { name?: string; idNumber?: string }[];
  removePersons?: number[];
}

/** The people to add, each checked by the shared rule (姓名, GB 11643 身份证号码) as typed. */
function AddedPersons() {
  const check = (column: '姓名' | '身份证号码', person: { name: string; idNumber: string }) => () => {
    const problem = insuredPersonProblem(person);
    return problem?.startsWith(`${column}：`)
      ? Promise.reject(new Error(problem.slice(column.length + 1)))
      : Promise.resolve();
  };
  return (
    <Form.List name="addPersons">
      {(fields, { add, remove }) => (
        <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
          <legend style={{ fontSize: 14, marginBottom: 8 }}>{T.addPersons}</legend>
          {fields.map((field, i) => (
            <Space key={field.key} align="start" wrap>
              <Form.Item
                name={[field.name, 'name']}
                rules={[{ validator: (_, v) => check('姓名', { name: v ?? '', idNumber: '' })() }]}
              >
                <Input
                  aria-label={`${T.addPersons}第 ${i + 1} 行${T.personName}`}
                  maxLength={50}
                  style={{ width: 110 }}
                />
              </Form.Item>
              <Form.Item
                name={[field.name, 'idNumber']}
                rules={[
                  {
                    validator: (_, v) => check('身份证号码', { name: '—', idNumber: v ?? '' })(),
                  },
                ]}
              >
                <Input
                  aria-label={`${T.addPersons}第 ${i + 1} 行${T.personId}`}
                  maxLength={18}
                  style={{ width: 190 }}
                />
              </Form.Item>
              <Button
                autoInsertSpace={false}
                aria-label={`删除${T.addPersons}第 ${i + 1} 行`}
                onClick={() => remove(field.name)}
              >
                删除
              </Button>
            </Space>
          ))}
          <Form.Item>
            <Button onClick={() => add({ name: '', idNumber: '' })}>{T.addOne}</Button>
          </Form.Item>
        </fieldset>
      )}
    </Form.List>
  );
}

function CancelDialog(props: { policyId: number; applicationId: number; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm();
  const [idempotencyKey] = useState(key);
  const materials = useQuery(materialsQuery('application', props.applicationId));
  const { error, saving, run } = useSubmit(props.onClose);
  // Every reason a policyholder may give; the server refuses, with the rule, one the product does not accept.
  const reasons = CANCELLATION_REASONS.filter((r) => r !== 'INSURER');
  const submit = async () => {
    const v = await form.validateFields();
    await run(() =>
      submitCancellation(props.policyId, {
        effectiveDate: v.effectiveDate,
        reason: v.reason as CancellationReason,
        idempotencyKey,
        ...(v.proofMaterialId ? { proofMaterialId: v.proofMaterialId } : {}),
        ...(v.note ? { note: v.note } : {}),
      }),
    );
  };
  return (
    <Modal open title={T.cancel} onCancel={() => props.onClose(false)} onOk={submit} confirmLoading={saving}>
      <Form form={form} layout="vertical" initialValues={{ effectiveDate: shanghaiToday() }}>
        <Form.Item
          name="effectiveDate"
          label={T.effective}
          rules={[{ required: true, message: `请填写${T.effective}` }]}
        >
          <Input type="date" />
        </Form.Item>
        <Form.Item name="reason" label={T.reason} rules={[{ required: true, message: `请选择${T.reason}` }]}>
          <Select options={reasons.map((r) => ({ value: r, label: CANCELLATION_REASON_LABELS[r] }))} />
        </Form.Item>
        <Form.Item name="proofMaterialId" label={T.proof} extra={T.proofHelp}>
          <Select
            allowClear
            loading={materials.isPending}
            options={(materials.data?.content ?? []).map((m) => ({
              value: m.id,
              label: `${m.docTypeName ?? ''} ${m.originalName}`.trim(),
            }))}
          />
        </Form.Item>
        <Form.Item name="note" label={T.note}>
          <Input.TextArea maxLength={500} />
        </Form.Item>
        {error ? (
          <div role="alert" style={{ color: '#ff4d4f' }}>
            {error}
          </div>
        ) : null}
      </Form>
    </Modal>
  );
}

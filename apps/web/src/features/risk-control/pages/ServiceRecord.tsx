// 服务记录 (riskControl/ServiceRecord, route prevention/service/:seqNo?order=<order number>): the service
// organisation's on-site record of an order while it is IN_SERVICE — service date, place, findings, hazards
// (description, part, level 一般/较大/重大, suggested measure, rectification deadline), participants, and site
// photos (image materials of business type 'service_order'). 保存记录 replaces the saved record (with the
// version as loaded: 409 reloads); 提交 saves, then submits it for the enterprise's confirmation and opens
// prevention/success/:seqNo. The enterprise's send-back opinion is shown on top.

import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { shanghaiToday } from '@piibs/shared/application-status';
import {
  HAZARD_LEVEL_LABELS,
  HAZARD_LEVELS,
  type HazardLevel,
  PARTICIPANT_SIDE_LABELS,
  PARTICIPANT_SIDES,
  type ParticipantSide,
  type ServiceOrderDetail,
  type ServiceRecordForm,
  serviceDateProblem,
} from '@piibs/shared/risk-control';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, DatePicker, Form, Input, Result, Row, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  orderAction,
  orderQuery,
  ordersResource,
  plansResource,
  saveRecord,
  successPath,
  viewPath,
} from '../api.ts';
import { OrderSummary } from '../components/OrderParts.tsx';
import { useOrderPage } from '../components/useOrderPage.tsx';
import { dayOf, dayText } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

interface RecordValues {
  serviceDate?: Dayjs;
  address?: string | null;
  findings?: string;
  hazards: {
    description?: string;
    location?: string | null;
    level?: HazardLevel;
    measure?: string | null;
    deadline?: Dayjs;
  }[];
  participants: { name?: string; side?: ParticipantSide; position?: string | null }[];
}

/** Days to rectify by level, for a new hazard row (the organisation may set another deadline). */
const DAYS_BY_LEVEL: Readonly<Record<HazardLevel, number>> = { GENERAL: 15, SERIOUS: 7, MAJOR: 3 };

function valuesOf(o: ServiceOrderDetail): RecordValues {
  return {
    serviceDate: dayOf(o.serviceDate ?? shanghaiToday()),
    address: o.address,
    findings: o.findings ?? '',
    hazards: o.hazards.map((h) => ({
      description: h.description,
      location: h.location,
      level: h.level,
      measure: h.measure,
      deadline: dayOf(h.deadline),
    })),
    participants: o.participants.length
      ? o.participants.map((p) => ({ name: p.name, side: p.side, position: p.position }))
      : o.persons.map((p) => ({ name: p.name, side: 'ORG' as const })),
  };
}

const blank = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

/** The request body of POST …/record: dates as 'yyyy-mm-dd', blanks as null. */
function toRecordBody(v: RecordValues, version: number): ServiceRecordForm {
  return {
    version,
    serviceDate: dayText(v.serviceDate) ?? '',
    address: blank(v.address),
    findings: (v.findings ?? '').trim(),
    hazards: (v.hazards ?? []).map((h) => ({
      description: (h.description ?? '').trim(),
      location: blank(h.location),
      level: h.level ?? 'GENERAL',
      measure: blank(h.measure),
      deadline: dayText(h.deadline) ?? '',
    })),
    participants: (v.participants ?? []).map((p) => ({
      name: (p.name ?? '').trim(),
      side: p.side ?? 'ORG',
      position: blank(p.position),
    })),
  };
}

const required = (label: string) => ({ required: true, whitespace: true, message: T.required(label) });

export default function ServiceRecord() {
  const page = useOrderPage();
  const navigate = useNavigate();
  const order = page.order;
  if (!order) return <>{page.fallback}</>;
  if (!order.canRecord) {
    return (
      <Result
        status="info"
        title={T.notEditable}
        subTitle={T.otherStatus(order.statusLabel)}
        extra={<Button onClick={() => navigate(viewPath(order.seqNo, order.number))}>{T.toView}</Button>}
      />
    );
  }
  return <RecordForm order={order} orderRef={page.ref} refetch={page.refetch} />;
}

function RecordForm({
  order,
  orderRef,
  refetch,
}: {
  order: ServiceOrderDetail;
  orderRef: string;
  refetch: () => Promise<unknown>;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message, modal } = useAppApis();
  const [form] = Form.useForm<RecordValues>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);
  // The form is filled from the order as first loaded; a save or a reload keeps what is typed.
  const [initial] = useState(() => valuesOf(order));

  const remember = (fresh: ServiceOrderDetail) => {
    client.setQueryData(orderQuery(orderRef).queryKey, fresh);
    return Promise.all([
      client.invalidateQueries({ queryKey: ordersResource.key, refetchType: 'none' }),
      client.invalidateQueries({ queryKey: plansResource.key, refetchType: 'none' }),
    ]);
  };

  /** Saves the record; answers the fresh order, or null when refused (shown on the form). */
  const save = async (): Promise<ServiceOrderDetail | null> => {
    let values: RecordValues;
    try {
      values = await form.validateFields();
    } catch {
      return null;
    }
    setError(null);
    try {
      const fresh = await saveRecord(order.number, toRecordBody(values, order.version));
      await remember(fresh);
      return fresh;
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return null;
      if (refusal.status === 409) {
        // The typed record stays; the next save sends the version loaded now.
        await refetch();
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return null;
      }
      if (!applyServerErrors(form, err)) setError(refusal.message);
      return null;
    }
  };

  const onSave = async () => {
    setBusy('save');
    const fresh = await save();
    setBusy(null);
    if (fresh) void message.success(T.recordSaved);
  };

  const onSubmit = () =>
    modal.confirm({
      title: T.submit,
      content: T.submitConfirm,
      okText: T.ok,
      cancelText: T.cancel,
      onOk: async () => {
        setBusy('submit');
        try {
          const saved = await save();
          if (!saved) return;
          try {
            const done = await orderAction(saved.number, 'submit', saved.version);
            await remember(done);
            navigate(successPath(done.seqNo, done.number));
          } catch (err) {
            const refusal = serverError(err);
            if (refusal) setError(refusal.message);
            await refetch();
          }
        } finally {
          setBusy(null);
        }
      },
    });

  const today = dayjs(shanghaiToday());
  const period = { startDate: order.policyStartDate, endDate: order.policyEndDate };
  const dateProblem = (d: Dayjs) => serviceDateProblem(d.format('YYYY-MM-DD'), period, shanghaiToday());

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card variant="borderless" title={T.recordTitle(order.number)}>
          {order.returnOpinion ? (
            <Alert
              type="warning"
              showIcon
              title={`${T.returnOpinion}：${order.returnOpinion}`}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <OrderSummary order={order} />
        </Card>
        <Card variant="borderless" title={T.findings}>
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
          <Form<RecordValues>
            form={form}
            name="service-record"
            layout="vertical"
            initialValues={initial}
            onValuesChange={() => {
              if (error) setError(null);
            }}
          >
            <Row gutter={24}>
              <Col xs={24} md={8}>
                <Form.Item
                  name="serviceDate"
                  label={T.serviceDate}
                  rules={[
                    { required: true, message: T.choose(T.serviceDate) },
                    {
                      validator: async (_, d: Dayjs | undefined) => {
                        const problem = d ? dateProblem(d) : null;
                        if (problem) throw new Error(problem);
                      },
                    },
                  ]}
                  extra={`保险期间 ${period.startDate} 至 ${period.endDate}`}
                >
                  <DatePicker style={{ width: '100%' }} disabledDate={(d) => dateProblem(d) !== null} />
                </Form.Item>
              </Col>
              <Col xs={24} md={16}>
                <Form.Item name="address" label={T.address}>
                  <Input maxLength={200} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="findings" label={T.findings} rules={[required(T.findings)]}>
              <Input.TextArea rows={5} maxLength={5000} showCount placeholder={T.findingsHint} />
            </Form.Item>

            <Form.List name="hazards">
              {(fields, { add, remove }) => (
                <Card size="small" title={T.hazardList} style={{ marginBottom: 16 }}>
                  {fields.map(({ key, name }) => (
                    <Row gutter={12} key={key} align="top" data-testid={`hazard-${name}`}>
                      <Col xs={24} md={7}>
                        <Form.Item
                          name={[name, 'description']}
                          label={T.hazardDescription}
                          rules={[required(T.hazardDescription)]}
                        >
                          <Input maxLength={500} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={4}>
                        <Form.Item name={[name, 'location']} label={T.hazardLocation}>
                          <Input maxLength={100} />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={3}>
                        <Form.Item
                          name={[name, 'level']}
                          label={T.hazardLevel}
                          rules={[{ required: true, message: T.choose(T.hazardLevel) }]}
                        >
                          <Select
                            aria-label={`${T.hazardLevel} ${name + 1}`}
                            options={HAZARD_LEVELS.map((l) => ({ value: l, label: HAZARD_LEVEL_LABELS[l] }))}
                          />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={5}>
                        <Form.Item name={[name, 'measure']} label={T.hazardMeasure}>
                          <Input maxLength={500} />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={4}>
                        <Form.Item
                          name={[name, 'deadline']}
                          label={T.hazardDeadline}
                          rules={[{ required: true, message: T.choose(T.hazardDeadline) }]}
                        >
                          <DatePicker style={{ width: '100%' }} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={1} style={{ paddingTop: 30 }}>
                        <MinusCircleOutlined
                          aria-label={`删除隐患 ${name + 1}`}
                          onClick={() => remove(name)}
                        />
                      </Col>
                    </Row>
                  ))}
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() =>
                      add({ level: 'GENERAL', deadline: today.add(DAYS_BY_LEVEL.GENERAL, 'day') })
                    }
                  >
                    {T.addHazard}
                  </Button>
                </Card>
              )}
            </Form.List>

            <Form.List
              name="participants"
              rules={[
                {
                  validator: async (_, list: unknown[] | undefined) => {
                    if (!list?.length) throw new Error('请至少填写一位参与人员');
                  },
                },
              ]}
            >
              {(fields, { add, remove }, { errors }) => (
                <Card size="small" title={T.participants} style={{ marginBottom: 16 }}>
                  {fields.map(({ key, name }) => (
                    <Row gutter={12} key={key} align="top">
                      <Col xs={24} md={8}>
                        <Form.Item
                          name={[name, 'name']}
                          label={T.participantName}
                          rules={[required(T.participantName)]}
                        >
                          <Input maxLength={30} />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={6}>
                        <Form.Item
                          name={[name, 'side']}
                          label={T.participantSide}
                          rules={[{ required: true, message: T.choose(T.participantSide) }]}
                        >
                          <Select
                            aria-label={`${T.participantSide} ${name + 1}`}
                            options={PARTICIPANT_SIDES.map((s) => ({
                              value: s,
                              label: PARTICIPANT_SIDE_LABELS[s],
                            }))}
                          />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={8}>
                        <Form.Item name={[name, 'position']} label={T.participantPosition}>
                          <Input maxLength={30} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={2} style={{ paddingTop: 30 }}>
                        <MinusCircleOutlined
                          aria-label={`删除参与人员 ${name + 1}`}
                          onClick={() => remove(name)}
                        />
                      </Col>
                    </Row>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ side: 'ENTERPRISE' })}>
                    {T.addParticipant}
                  </Button>
                  <Form.ErrorList errors={errors} />
                </Card>
              )}
            </Form.List>
          </Form>
          <Can code="prevention:serve">
            <Space>
              <Button loading={busy === 'save'} disabled={busy !== null} onClick={() => void onSave()}>
                {T.saveRecord}
              </Button>
              <Button type="primary" loading={busy === 'submit'} disabled={busy !== null} onClick={onSubmit}>
                {T.submit}
              </Button>
              <Button onClick={() => navigate(-1)}>{T.back}</Button>
            </Space>
          </Can>
        </Card>
        <Card variant="borderless" title={T.photos}>
          <MaterialsPanel
            businessType="service_order"
            businessId={order.id}
            docTypes={['SERVICE_RECORD']}
            editable={order.canRecord}
          />
        </Card>
      </Space>
    </div>
  );
}

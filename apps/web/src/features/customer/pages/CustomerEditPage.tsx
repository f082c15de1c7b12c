import { formatTime } from '@piibs/shared/constants';
import type { CustomerRow } from '@piibs/shared/customer';
import { CUSTOMER_DOC_TYPES } from '@piibs/shared/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Result, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { invalidateResource, serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { MATERIAL_TEXTS, MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { flattenMenus, usePermissionStore } from '@/stores/permission.ts';
import { useTabRecord } from '@/stores/tagsView.ts';
import { useUserStore } from '@/stores/user.ts';
import {
  CUSTOMER_LIST_PATH,
  createCustomer,
  customerPath,
  customerQuery,
  customersResource,
  MINE_ID,
  mineCustomerQuery,
  resubmitCustomer,
  updateCustomer,
} from '../api.ts';
import { CustomerFields, type CustomerValues, customerValues } from '../components/CustomerForm.tsx';
import { ReviewStatusTag } from '../components/ReviewStatusTag.tsx';
import { APPLICANT_TEXTS as T } from '../texts.ts';

function toBody(values: CustomerValues) {
  return {
    ...values,
    uscc: values.uscc.trim().toUpperCase(),
    headcount: Number(values.headcount),
    licenceNo: values.licenceNo?.trim() || null,
    caFingerprint: values.caFingerprint || null,
  };
}

/**
 * 客户信息 (applicant/ApplicantEdit, agent/ApplicantEdit): route params `id` (0 or absent: a new customer;
 * 'mine', also as the static menu path …/mine/false: the enterprise account's own record, 企业信息) and
 * `detail` ('true': read-only). Saves with the loaded version; a 409 loads what the server holds now. After a
 * save the user goes to the customer list when their menus have it; an enterprise (no list) stays on its record.
 */
export default function CustomerEditPage() {
  const params = useParams();
  const { pathname } = useLocation();
  // 企业信息 is a menu page at the static path …/newUpdate/mine/false, where there are no route params.
  const mine = (params.id ?? pathname.split('/').at(-2)) === MINE_ID;
  const id = mine ? 0 : Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [form] = Form.useForm<CustomerValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const roles = useUserStore((state) => state.roles);
  const ownUscc = useUserStore((state) => state.user?.uscc ?? null);
  const listReachable = usePermissionStore((state) =>
    flattenMenus(state.nodes).some((node) => node.path === CUSTOMER_LIST_PATH),
  );

  const byId = useQuery({ ...customerQuery(id), enabled: id > 0 });
  const own = useQuery({ ...mineCustomerQuery(), enabled: mine });
  const query = mine ? own : byId;
  const loads = mine || id > 0;
  const customer = query.data ?? undefined;
  useTabRecord(customer?.name);
  const isNew = !customer && (mine || id <= 0);
  const readOnly = !isNew && params.detail === 'true';
  /** 企业信息 of an enterprise that has not registered yet: a new record of its own code. */
  const registering = mine && own.data === null;

  useEffect(() => {
    if (customer) form.setFieldsValue(customerValues(customer));
  }, [customer, form]);

  useEffect(() => {
    if (registering && ownUscc) form.setFieldsValue({ uscc: ownUscc });
  }, [registering, ownUscc, form]);

  const leave = () => (listReachable ? navigate(CUSTOMER_LIST_PATH) : navigate(-1));

  const showRefusal = (err: unknown): boolean => {
    const refusal = serverError(err);
    if (!refusal || refusal.status === 401) return true;
    if (!applyServerErrors(form, err)) setError(refusal.message);
    return refusal.status === 409;
  };

  const reload = async (serverMessage: string) => {
    const fresh = await query.refetch();
    if (fresh.data) form.setFieldsValue(customerValues(fresh.data));
    setError(`${serverMessage}（${T.conflictReloaded}）`);
  };

  const saved = async (row: CustomerRow, text: string) => {
    void message.success(text);
    client.setQueryData(customerQuery(row.id).queryKey, row);
    if (mine) client.setQueryData(mineCustomerQuery().queryKey, row);
    await invalidateResource(client, customersResource);
    if (mine) return; // 企业信息 stays on the record, now with its new review status
    if (listReachable) navigate(CUSTOMER_LIST_PATH);
    else if (!customer) navigate(customerPath(roles, row.id, false), { replace: true });
  };

  const save = async (values: CustomerValues) => {
    setError(null);
    setSaving(true);
    try {
      const row = customer
        ? await updateCustomer({ ...toBody(values), id: customer.id, version: customer.version })
        : await createCustomer(toBody(values));
      await saved(row, !customer ? T.created : row.reviewStatus === 'pending' ? T.savedForReview : T.saved);
    } catch (err) {
      const refusal = serverError(err);
      if (refusal?.status === 409 && customer) await reload(refusal.message);
      else showRefusal(err);
    } finally {
      setSaving(false);
    }
  };

  const resubmit = async () => {
    if (!customer) return;
    setError(null);
    setSaving(true);
    try {
      const row = await resubmitCustomer(customer.id, { version: customer.version });
      await saved(row, T.resubmitted);
    } catch (err) {
      const refusal = serverError(err);
      if (refusal?.status === 409) await reload(refusal.message);
      else showRefusal(err);
    } finally {
      setSaving(false);
    }
  };

  if (loads && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (loads && query.isError) {
    const refusal = serverError(query.error);
    return (
      <Result
        status="warning"
        title={refusal?.status === 404 ? T.notFound : (refusal?.message ?? T.notFound)}
        extra={<Button onClick={leave}>{T.back}</Button>}
      />
    );
  }
  if (registering && !ownUscc) {
    return (
      <Result
        status="warning"
        title={T.noEnterprise}
        extra={<Button onClick={() => navigate(-1)}>{T.back}</Button>}
      />
    );
  }

  const title = mine ? T.titleMine : isNew ? T.titleNew : readOnly ? T.titleView : T.titleEdit;
  const mineNotice = !mine || readOnly ? null : registering ? T.mineMissing : T.mineReview;
  const canResubmit = !readOnly && customer?.reviewStatus === 'returned';

  return (
    <div style={{ padding: 16 }}>
      <Card
        variant="borderless"
        title={title}
        extra={customer ? <ReviewStatusTag status={customer.reviewStatus} /> : null}
      >
        {customer && (customer.reviewOpinion || customer.reviewedAt) ? (
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={T.reviewStatus}>
              <ReviewStatusTag status={customer.reviewStatus} />
            </Descriptions.Item>
            <Descriptions.Item label={T.reviewedAt}>
              {customer.reviewedAt ? formatTime(customer.reviewedAt) : T.none}
            </Descriptions.Item>
            {customer.reviewOpinion ? (
              <Descriptions.Item label={T.lastOpinion} span={2}>
                {customer.reviewOpinion}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
        ) : null}
        {mineNotice ? (
          <Alert type="info" showIcon role="status" title={mineNotice} style={{ marginBottom: 16 }} />
        ) : null}
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        <Form<CustomerValues>
          form={form}
          layout="vertical"
          name="customer"
          onFinish={save}
          onValuesChange={() => {
            if (error) setError(null);
          }}
        >
          <CustomerFields
            form={form}
            readOnly={readOnly}
            maskedPhone={customer?.phone}
            customerId={customer?.id}
            usccLocked={mine}
          />
          <Space>
            {readOnly ? null : (
              <Can code={isNew ? 'customer:add' : 'customer:edit'}>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {T.save}
                </Button>
              </Can>
            )}
            {canResubmit ? (
              <Can code="customer:edit">
                <Button onClick={() => void resubmit()} loading={saving}>
                  {T.resubmit}
                </Button>
              </Can>
            ) : null}
            <Button onClick={() => navigate(-1)}>{T.back}</Button>
          </Space>
        </Form>
        {customer ? (
          <div style={{ marginTop: 24 }}>
            <MaterialsPanel
              businessType="customer"
              businessId={customer.id}
              editable={!readOnly}
              docTypes={CUSTOMER_DOC_TYPES}
              title={MATERIAL_TEXTS.licences}
            />
          </div>
        ) : null}
      </Card>
    </div>
  );
}

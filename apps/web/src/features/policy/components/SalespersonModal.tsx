// updateSale: a new salesperson with a required reason, on the supplement's current version; the history below.
import type { SalespersonChangeForm } from '@piibs/shared/sales';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { changeSalesperson, policySalesQuery, salesResource } from '../api.ts';
import { SALES_TEXTS as T } from '../texts.ts';
import { ChangeHistory } from './ChangeHistory.tsx';

type Values = Omit<SalespersonChangeForm, 'version'>;

export function SalespersonModal({
  policyId,
  policyNumber,
  onClose,
}: {
  policyId: number;
  policyNumber: string;
  onClose: () => void;
}) {
  const query = useQuery(policySalesQuery(policyId));
  const client = useQueryClient();
  const { message } = useAppApis();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const supplement = query.data?.supplement ?? null;

  const submit = async (values: Values) => {
    if (!supplement) return;
    setError(null);
    setSaving(true);
    try {
      const fresh = await changeSalesperson(policyId, { ...values, version: supplement.version });
      client.setQueryData(policySalesQuery(policyId).queryKey, fresh);
      await client.invalidateQueries({ queryKey: salesResource.key });
      void message.success(T.changed);
      onClose();
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409) {
        await query.refetch();
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return;
      }
      if (!applyServerErrors(form, err)) setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={`${T.changeSalesperson} · ${policyNumber}`}
      width={720}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={T.save}
      cancelText="取消"
      okButtonProps={{ disabled: !supplement }}
      confirmLoading={saving}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {query.isPending ? (
        <Spin />
      ) : query.isError ? (
        <Alert type="error" showIcon title={serverError(query.error)?.message ?? T.notFound} />
      ) : !supplement ? (
        <Alert type="warning" showIcon title={T.notSupplemented} />
      ) : (
        <>
          <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={T.oldSalesperson}>
              {supplement.salespersonName}（{supplement.salespersonNo}）
            </Descriptions.Item>
          </Descriptions>
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 12 }} />
          ) : null}
          <Form<Values> form={form} layout="vertical" name="salesperson" onFinish={submit}>
            <Form.Item
              name="salespersonName"
              label={T.newName}
              rules={[{ required: true, whitespace: true }]}
            >
              <Input maxLength={50} />
            </Form.Item>
            <Form.Item
              name="salespersonNo"
              label={T.newNo}
              rules={[
                { required: true, whitespace: true },
                { pattern: /^[A-Za-z0-9\-_/]+$/, message: '只能包含字母、数字和 - _ /' },
              ]}
            >
              <Input maxLength={32} />
            </Form.Item>
            <Form.Item
              name="reason"
              label={T.reason}
              rules={[{ required: true, whitespace: true, message: T.reasonRequired }]}
            >
              <Input.TextArea maxLength={200} showCount rows={3} placeholder={T.reasonPlaceholder} />
            </Form.Item>
          </Form>
          <Typography.Title level={5}>{T.history}</Typography.Title>
          <ChangeHistory rows={query.data.changes} />
        </>
      )}
    </Modal>
  );
}

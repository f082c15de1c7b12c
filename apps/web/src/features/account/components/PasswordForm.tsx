import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { ApiError } from '@/lib/request-inline.ts';
import { updatePassword } from '../api.ts';
import { CENTER_TEXTS as T } from '../texts.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';

type Values = { oldPass: string; newPass: string; confirmPass: string };

export function PasswordForm({ onChanged }: { onChanged?: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = useAppApis();
  const [saving, setSaving] = useState(false);

  const onFinish = async (values: Values) => {
    setSaving(true);
    try {
      const { revokedSessions } = await updatePassword(values.oldPass, values.newPass);
      form.resetFields();
      void message.success(revokedSessions ? T.passwordChangedOthers(revokedSessions) : T.passwordChanged);
      onChanged?.();
    } catch (err) {
      // Wrong old password, same as the old one …: shown on the field it concerns, else under the new one.
      if (err instanceof ApiError && !applyServerErrors(form, err))
        form.setFields([{ name: 'newPass', errors: [err.message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Values> form={form} name="password" layout="vertical" style={{ maxWidth: 480 }} onFinish={onFinish}>
      <Form.Item name="oldPass" label={T.oldPass} rules={[{ required: true, message: T.oldPassRequired }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <NewPasswordFields
        name="newPass"
        confirmName="confirmPass"
        label={T.newPass}
        requiredMessage={T.newPassRequired}
      />
      <Button type="primary" htmlType="submit" loading={saving}>
        {T.changePassword}
      </Button>
    </Form>
  );
}

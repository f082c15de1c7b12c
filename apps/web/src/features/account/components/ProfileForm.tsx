import type { AuthUser } from '@piibs/shared/auth';
import { rules } from '@piibs/shared/validators';
import { Button, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useUserStore } from '@/stores/user.ts';
import { updateProfile } from '../api.ts';
import { CENTER_TEXTS as T } from '../texts.ts';

type Values = { nickName: string; phone?: string; email?: string; gender?: '男' | '女' };

export function ProfileForm({ user }: { user: AuthUser }) {
  const [form] = Form.useForm<Values>();
  const { message } = useAppApis();
  const setUser = useUserStore((state) => state.setUser);
  const [saving, setSaving] = useState(false);

  // The server shows the phone masked (138****5678); sent back unchanged it keeps the stored number.
  const phoneRule = {
    validator: (rule: unknown, value: unknown) =>
      value === user.phone ? Promise.resolve() : rules.mobile.validator(rule, value),
  };

  const onFinish = async (values: Values) => {
    setSaving(true);
    try {
      const updated = await updateProfile({
        nickName: values.nickName.trim(),
        phone: values.phone?.trim() ?? '',
        email: values.email?.trim() ?? '',
        ...(values.gender ? { gender: values.gender } : {}),
      });
      setUser(updated);
      form.setFieldsValue({ phone: updated.phone ?? '' });
      void message.success(T.profileSaved);
    } catch {
      // The HTTP client showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      name="profile"
      layout="vertical"
      style={{ maxWidth: 480 }}
      onFinish={onFinish}
      initialValues={{
        nickName: user.nickName,
        phone: user.phone ?? '',
        email: user.email ?? '',
        gender: user.gender === '男' || user.gender === '女' ? user.gender : undefined,
      }}
    >
      <Form.Item
        name="nickName"
        label={T.nickName}
        rules={[{ required: true, whitespace: true, message: T.nickNameRequired }, { max: 30 }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="phone" label={T.phone} rules={[phoneRule]}>
        <Input maxLength={11} inputMode="tel" />
      </Form.Item>
      <Form.Item name="email" label={T.email} rules={[rules.email]}>
        <Input maxLength={100} inputMode="email" />
      </Form.Item>
      <Form.Item name="gender" label={T.gender}>
        <Radio.Group
          options={[
            { label: T.male, value: '男' },
            { label: T.female, value: '女' },
          ]}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {T.save}
      </Button>
    </Form>
  );
}

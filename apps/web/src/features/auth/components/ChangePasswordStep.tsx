import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { NewPasswordFields } from '@/features/account/components/NewPasswordFields.tsx';
import { errorText } from '@/lib/request-inline.ts';
import { changePasswordWith, revokeToken } from '../api.ts';
import { AUTH_TEXTS as T } from '../texts.ts';

type Values = { oldPass: string; newPass: string; confirmPass: string };

/**
 * The step after a sign-in whose password scored 0 (spec §4 "a further step"): the answer's token, kept only
 * in memory, may change the password and nothing else. Then the user signs in again with the new password.
 */
export default function ChangePasswordStep({
  token,
  oldPassword,
  oneTime = false,
  onDone,
}: {
  token: string;
  oldPassword: string;
  /** The password was a one-time one from an administrator (new account, reset), not a weak one. */
  oneTime?: boolean;
  /** Called with true after a change, false when the user goes back without one. */
  onDone: (changed: boolean) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: Values) => {
    setError(null);
    setSubmitting(true);
    try {
      await changePasswordWith(token, values.oldPass, values.newPass);
      // The new password is set; this session is not needed (the user signs in again), so end it.
      await revokeToken(token);
      onDone(true);
    } catch (err) {
      setError(errorText(err) ?? T.signInFailed);
    } finally {
      setSubmitting(false);
    }
  };

  const goBack = () => {
    void revokeToken(token);
    onDone(false);
  };

  return (
    <Form<Values>
      form={form}
      name="change-weak-password"
      size="large"
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ oldPass: oldPassword }}
      requiredMark={false}
    >
      <Alert
        type="warning"
        showIcon
        title={oneTime ? T.mustChangeTitle : T.weakTitle}
        description={T.weakDescription}
        style={{ marginBottom: 16 }}
      />
      {/* The old password is the one just typed: sent again, never shown. */}
      <Form.Item name="oldPass" hidden>
        <Input type="hidden" />
      </Form.Item>
      <NewPasswordFields
        name="newPass"
        confirmName="confirmPass"
        label={T.newPassword}
        requiredMessage={T.newPasswordRequired}
      />
      {error ? <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} /> : null}
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {T.changePassword}
      </Button>
      <Button type="link" block onClick={goBack} style={{ marginTop: 8 }}>
        {T.backToLogin}
      </Button>
    </Form>
  );
}

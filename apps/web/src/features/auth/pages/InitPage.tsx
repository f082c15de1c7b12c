import { CheckCircleFilled } from '@ant-design/icons';
import { initForm } from '@piibs/shared/password-forms';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { zodRule } from '@/components/form/zod-rule.ts';
import { NewPasswordFields } from '@/features/account/components/NewPasswordFields.tsx';
import { ApiError, errorText } from '@/lib/request-inline.ts';
import { initCheckQuery, initialise, useInitCheck } from '../api.ts';
import { AuthLayout, authStyles as styles } from '../components/AuthLayout.tsx';
import { AUTH_TEXTS as T } from '../texts.ts';

type Values = {
  organisationName: string;
  username: string;
  password: string;
  confirm: string;
  nickName?: string;
};

const LOGIN_PATH = '/piibs/login';

function AlreadyInitialised() {
  return (
    <div className={styles.center}>
      <CheckCircleFilled style={{ fontSize: 48, color: '#52c41a' }} />
      <h2 style={{ margin: '16px 0 8px' }}>{T.initAlready}</h2>
      <p className={styles.subtitle} style={{ marginBottom: 24 }}>
        {T.initAlreadyHint}
      </p>
      <Link to={LOGIN_PATH}>
        <Button type="primary" size="large" block>
          {T.goLogin}
        </Button>
      </Link>
    </div>
  );
}

/** /piibs/init: first-run setup, the organisation and the first administrator. */
export default function InitPage() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const check = useInitCheck();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: Values) => {
    setError(null);
    setSubmitting(true);
    try {
      await initialise({
        organisationName: values.organisationName.trim(),
        username: values.username.trim(),
        password: values.password,
        ...(values.nickName?.trim() ? { nickName: values.nickName.trim() } : {}),
      });
      // Said on the login page itself: a toast from here would vanish with this page's antd providers.
      navigate(LOGIN_PATH, { replace: true, state: { notice: T.initDone } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        queryClient.setQueryData(initCheckQuery.queryKey, { initialized: true });
        return;
      }
      if (!applyServerErrors(form, err)) setError(errorText(err) ?? '初始化失败');
    } finally {
      setSubmitting(false);
    }
  };

  let body: ReactNode;
  if (check.isPending) body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  else if (check.data?.initialized) body = <AlreadyInitialised />;
  else {
    body = (
      <Form<Values>
        form={form}
        name="init"
        layout="vertical"
        size="large"
        onFinish={onFinish}
        requiredMark={false}
      >
        <Form.Item
          name="organisationName"
          label={T.organisationName}
          rules={[
            { required: true, whitespace: true, message: T.organisationNameRequired },
            zodRule(initForm.shape.organisationName),
          ]}
        >
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item
          name="username"
          label={T.adminUsername}
          rules={[
            { required: true, whitespace: true, message: T.adminUsernameRequired },
            zodRule(initForm.shape.username),
          ]}
        >
          <Input autoComplete="username" />
        </Form.Item>
        <NewPasswordFields
          name="password"
          confirmName="confirm"
          label={T.password}
          requiredMessage={T.passwordRequired}
        />
        <Form.Item name="nickName" label={T.nickName} rules={[zodRule(initForm.shape.nickName)]}>
          <Input autoComplete="nickname" />
        </Form.Item>
        {error ? (
          <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />
        ) : null}
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {T.initSubmit}
        </Button>
      </Form>
    );
  }

  return (
    <AuthLayout title={T.initTitle} subtitle={check.data?.initialized ? undefined : T.initSubtitle}>
      {body}
    </AuthLayout>
  );
}

import { PASSWORD_RULES_TEXT } from '@piibs/shared/password';
import { Form, Input } from 'antd';
import { sameAsRule, strongPasswordRule } from '../password-rules.ts';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';

interface Props {
  /** The form field of the new password; its confirmation is `confirmName`. */
  name: string;
  confirmName: string;
  label: string;
  requiredMessage: string;
}

/** A new password (the shared rules, stated under it, with a meter) and its confirmation, for any antd form. */
export function NewPasswordFields({ name, confirmName, label, requiredMessage }: Props) {
  const password = Form.useWatch(name, Form.useFormInstance()) as string | undefined;
  return (
    <>
      <Form.Item
        name={name}
        label={label}
        rules={[{ required: true, message: requiredMessage }, strongPasswordRule]}
        extra={
          <>
            {PASSWORD_RULES_TEXT}
            <PasswordStrengthMeter password={password} />
          </>
        }
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name={confirmName}
        label="确认密码"
        dependencies={[name]}
        rules={[{ required: true, message: '请再次输入新密码' }, sameAsRule(name)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

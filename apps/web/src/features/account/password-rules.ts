import { PASSWORD_RULE_MESSAGE, passwordStrength } from '@piibs/shared/password';

type Rule = { validator: (rule: unknown, value: unknown) => Promise<void> };
type FieldGetter = { getFieldValue: (name: string) => unknown };

/** A new password must score at least 1 (the server's rule, shared). */
export const strongPasswordRule: Rule = {
  validator: (_rule, value) =>
    typeof value !== 'string' || value === '' || passwordStrength(value) > 0
      ? Promise.resolve()
      : Promise.reject(new Error(PASSWORD_RULE_MESSAGE)),
};

const PASSWORD_MISMATCH = '两次输入的密码不一致';

/** The confirmation must repeat the field `name`. */
export function sameAsRule(name: string): (form: FieldGetter) => Rule {
  return (form) => ({
    validator: (_rule, value) =>
      !value || value === form.getFieldValue(name)
        ? Promise.resolve()
        : Promise.reject(new Error(PASSWORD_MISMATCH)),
  });
}

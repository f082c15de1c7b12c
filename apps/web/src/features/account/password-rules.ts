import { passwordProblem } from '@piibs/shared/password';

type Rule = { validator: (rule: unknown, value: unknown) => Promise<void> };
type FieldGetter = { getFieldValue: (name: string) => unknown };

/** A new password must pass the server's rules (shared); the error says which one it breaks. */
export const strongPasswordRule: Rule = {
  validator: (_rule, value) => {
    const problem = typeof value !== 'string' || value === '' ? null : passwordProblem(value);
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
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

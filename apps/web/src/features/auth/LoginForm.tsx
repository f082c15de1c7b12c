import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { passwordStrength } from '@piibs/shared/password';
import { Button, Checkbox, Input } from 'antd';
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '@/lib/request-inline.ts';
import { useUserStore } from '@/stores/user.ts';
import { authStyles as styles } from './AuthLayout.tsx';
import { useCaptcha } from './api.ts';
import { rememberedUsername, rememberUsername } from './remember.ts';
import { safeRedirect } from './safe-redirect.ts';
import { AUTH_TEXTS as T } from './texts.ts';

// Only a weak-password sign-in needs it: kept out of the login page's first load.
const ChangePasswordStep = lazy(() => import('./ChangePasswordStep.tsx'));

type Field = 'username' | 'password' | 'code';
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string>>;

/** The weak-password session of a psPower-0 answer, kept in memory only. */
type WeakSession = { token: string; oldPassword: string };

const REQUIRED: Record<Field, string> = {
  username: T.usernameRequired,
  password: T.passwordRequired,
  code: T.codeRequired,
};

function validate(values: Values): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of Object.keys(REQUIRED) as Field[]) {
    if (!values[field].trim()) errors[field] = REQUIRED[field];
  }
  return errors;
}

/** A message under a field, tied to it for screen readers. */
function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <div id={id} className={styles.fieldError}>
      {message}
    </div>
  ) : null;
}

/**
 * Username + password + captcha sign-in, shared by /piibs/login and /piibs/loginEP. After success it goes to
 * the same-site `redirect` of the URL, or to `landing`. Plain controlled inputs rather than antd's Form: the
 * form is small, and Form (with its grid and tooltip) would weigh on the login page's first load.
 */
export function LoginForm({ landing, links }: { landing: string; links?: ReactNode }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useUserStore((state) => state.login);
  const captcha = useCaptcha();
  const [remembered] = useState(rememberedUsername);
  const [values, setValues] = useState<Values>({ username: remembered ?? '', password: '', code: '' });
  const [rememberMe, setRememberMe] = useState(remembered !== null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [weak, setWeak] = useState<WeakSession | null>(null);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    if (fieldErrors[field] && value.trim()) setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  const refreshCaptcha = () => {
    setValues((current) => ({ ...current, code: '' }));
    void captcha.refetch();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const errors = validate(values);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setError(null);
    setNotice(null);
    setSubmitting(true);
    try {
      const result = await login({
        username: values.username,
        password: values.password,
        code: values.code,
        uuid: captcha.data?.uuid ?? '',
        // The client's estimate (spec §3); the server recomputes it and its answer decides.
        psPower: passwordStrength(values.password),
      });
      rememberUsername(rememberMe ? values.username.trim() : null);
      if (result.psPower === 0) {
        setWeak({ token: result.token, oldPassword: values.password });
        return;
      }
      navigate(safeRedirect(params.get('redirect')) ?? landing, { replace: true });
    } catch (err) {
      setError(errorText(err) ?? T.signInFailed);
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  if (weak) {
    return (
      <Suspense fallback={null}>
        <ChangePasswordStep
          token={weak.token}
          oldPassword={weak.oldPassword}
          onDone={(changed) => {
            setWeak(null);
            setValues((current) => ({ ...current, password: '', code: '' }));
            if (changed) setNotice(T.changePasswordDone);
            void captcha.refetch();
          }}
        />
      </Suspense>
    );
  }

  const status = (field: Field) => (fieldErrors[field] ? 'error' : undefined);
  const describedBy = (field: Field) => (fieldErrors[field] ? `login-${field}-error` : undefined);

  return (
    <form name="login" onSubmit={onSubmit} noValidate>
      {notice ? (
        <div className={styles.notice} role="status">
          {notice}
        </div>
      ) : null}
      <div className={styles.field}>
        <Input
          size="large"
          prefix={<UserOutlined />}
          placeholder={T.username}
          aria-label={T.username}
          aria-invalid={Boolean(fieldErrors.username)}
          aria-describedby={describedBy('username')}
          autoComplete="username"
          value={values.username}
          onChange={change('username')}
          status={status('username')}
        />
        <FieldError id="login-username-error" message={fieldErrors.username} />
      </div>
      <div className={styles.field}>
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          placeholder={T.password}
          aria-label={T.password}
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby={describedBy('password')}
          autoComplete="current-password"
          value={values.password}
          onChange={change('password')}
          status={status('password')}
        />
        <FieldError id="login-password-error" message={fieldErrors.password} />
      </div>
      <div className={styles.field}>
        <div className={styles.captchaRow}>
          <Input
            size="large"
            prefix={<SafetyCertificateOutlined />}
            placeholder={T.code}
            aria-label={T.code}
            aria-invalid={Boolean(fieldErrors.code)}
            aria-describedby={describedBy('code')}
            autoComplete="off"
            maxLength={8}
            value={values.code}
            onChange={change('code')}
            status={status('code')}
          />
          <button
            type="button"
            className={styles.captchaButton}
            onClick={refreshCaptcha}
            title={T.captchaRefresh}
            aria-label={T.captchaRefresh}
          >
            {captcha.data ? <img src={captcha.data.img} alt={T.captchaAlt} /> : T.captchaLoading}
          </button>
        </div>
        <FieldError id="login-code-error" message={fieldErrors.code} />
      </div>
      <div className={styles.row}>
        <Checkbox
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
          title={T.rememberMeHint}
        >
          {T.rememberMe}
        </Checkbox>
        {links}
      </div>
      {error ? (
        <div className={styles.error} role="alert">
          {error}
        </div>
      ) : null}
      <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
        {submitting ? T.submitting : T.submit}
      </Button>
    </form>
  );
}

import {
  type ComponentProps,
  type FormEvent,
  type InputHTMLAttributes,
  lazy,
  type ReactNode,
  Suspense,
  useState,
} from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorText } from '@/lib/request-inline.ts';
import { useUserStore } from '@/stores/user.ts';
import { useCaptcha } from '../captcha.ts';
import { rememberedUsername, rememberUsername } from '../remember.ts';
import { safeRedirect } from '../safe-redirect.ts';
import { AUTH_TEXTS as T } from '../texts.ts';
import { authStyles as styles } from './AuthLayout.tsx';
import { AuthIcon, type AuthIconName } from './icons.tsx';

// Only a weak-password sign-in needs it: kept out of the login page's first load, with the antd providers
// its form needs (the sign-in pages render outside them).
const ChangePasswordStep = lazy(async () => {
  const [{ default: Step }, { AntdProviders }] = await Promise.all([
    import('./ChangePasswordStep.tsx'),
    import('@/lib/antd-providers.tsx'),
  ]);
  return {
    default: (props: ComponentProps<typeof Step>) => (
      <AntdProviders>
        <Step {...props} />
      </AntdProviders>
    ),
  };
});

type Field = 'username' | 'password' | 'code';
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string>>;

/** The password-change-only session of a psPower-0 (or one-time password) answer, kept in memory only. */
type WeakSession = { token: string; oldPassword: string; oneTime: boolean };

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

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  icon: AuthIconName;
  invalid: boolean;
  suffix?: ReactNode;
};

/** A large text box with a leading icon, styled like antd's (which the login page does not load). */
function TextField({ icon, invalid, suffix, className, ...input }: TextFieldProps) {
  return (
    <span className={`${styles.input} ${invalid ? styles.inputInvalid : ''} ${className ?? ''}`}>
      <span className={styles.inputIcon}>
        <AuthIcon name={icon} />
      </span>
      <input {...input} aria-invalid={invalid} />
      {suffix}
    </span>
  );
}

/** The password box, with a button that shows or hides what was typed. */
function PasswordField(props: Omit<TextFieldProps, 'type' | 'suffix'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      suffix={
        <button
          type="button"
          className={styles.inputToggle}
          onClick={() => setVisible((on) => !on)}
          aria-label={visible ? T.hidePassword : T.showPassword}
          aria-pressed={visible}
        >
          <AuthIcon name={visible ? 'eye' : 'eyeOff'} />
        </button>
      }
    />
  );
}

/**
 * The password rules (with the breached-password list, about 15 KB) load when the form is sent, not with the
 * login page. Should they fail to load, 0 is sent: the server recomputes the strength either way.
 */
async function estimateStrength(password: string): Promise<number> {
  try {
    return (await import('@piibs/shared/password')).passwordStrength(password);
  } catch {
    return 0;
  }
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
  /** A refused password: the server says only 用户名或密码错误 (a lock included), so the rule is told here. */
  const [refused, setRefused] = useState(false);
  // A page that sends the user here may leave a note (e.g. first-run setup: 初始化完成…).
  const { state } = useLocation();
  const [notice, setNotice] = useState<string | null>(
    typeof (state as { notice?: unknown } | null)?.notice === 'string'
      ? (state as { notice: string }).notice
      : null,
  );
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
        psPower: await estimateStrength(values.password),
      });
      rememberUsername(rememberMe ? values.username.trim() : null);
      if (result.psPower === 0 || result.mustChangePassword) {
        setWeak({ token: result.token, oldPassword: values.password, oneTime: result.psPower !== 0 });
        return;
      }
      navigate(safeRedirect(params.get('redirect')) ?? landing, { replace: true });
    } catch (err) {
      setError(errorText(err) ?? T.signInFailed);
      setRefused(err instanceof ApiError && err.status === 401);
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
          oneTime={weak.oneTime}
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

  const describedBy = (field: Field) => (fieldErrors[field] ? `login-${field}-error` : undefined);

  return (
    <form name="login" onSubmit={onSubmit} noValidate>
      {notice ? (
        <div className={styles.notice} role="status">
          {notice}
        </div>
      ) : null}
      <div className={styles.field}>
        <TextField
          icon="user"
          type="text"
          placeholder={T.username}
          aria-label={T.username}
          invalid={Boolean(fieldErrors.username)}
          aria-describedby={describedBy('username')}
          autoComplete="username"
          value={values.username}
          onChange={change('username')}
        />
        <FieldError id="login-username-error" message={fieldErrors.username} />
      </div>
      <div className={styles.field}>
        <PasswordField
          icon="lock"
          placeholder={T.password}
          aria-label={T.password}
          invalid={Boolean(fieldErrors.password)}
          aria-describedby={describedBy('password')}
          autoComplete="current-password"
          value={values.password}
          onChange={change('password')}
        />
        <FieldError id="login-password-error" message={fieldErrors.password} />
      </div>
      <div className={styles.field}>
        <div className={styles.captchaRow}>
          <TextField
            icon="safety"
            type="text"
            className={styles.captchaInput}
            placeholder={T.code}
            aria-label={T.code}
            invalid={Boolean(fieldErrors.code)}
            aria-describedby={describedBy('code')}
            autoComplete="off"
            maxLength={8}
            value={values.code}
            onChange={change('code')}
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
        <label className={styles.checkbox} title={T.rememberMeHint}>
          <input
            type="checkbox"
            checked={rememberMe}
            onChange={(event) => setRememberMe(event.target.checked)}
          />
          {T.rememberMe}
        </label>
        {links}
      </div>
      {error ? (
        <div className={styles.error} role="alert">
          {error}
          {refused ? <div className={styles.errorHint}>{T.lockHint}</div> : null}
        </div>
      ) : null}
      <button type="submit" className={styles.submit} aria-busy={submitting}>
        {submitting ? <span className={styles.spinner} aria-hidden="true" /> : null}
        {submitting ? T.submitting : T.submit}
      </button>
    </form>
  );
}

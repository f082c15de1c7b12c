import { Link } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { LoginForm } from '../components/LoginForm.tsx';
import { AUTH_TEXTS as T } from '../texts.ts';

/** /piibs/login: username, password and captcha; link to the certificate sign-in. */
export default function LoginPage() {
  return (
    <AuthLayout subtitle={T.passwordLoginSubtitle}>
      <LoginForm landing={HOME_PATH} links={<Link to="/piibs/CAlogin">{T.caLink}</Link>} />
    </AuthLayout>
  );
}

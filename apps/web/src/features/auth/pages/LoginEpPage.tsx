import { Link } from 'react-router';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { LoginForm } from '../components/LoginForm.tsx';
import { AUTH_TEXTS as T } from '../texts.ts';

/** Where project-insurance enterprises start: their application list. */
const EP_LANDING = '/piibs/epinsure/insureList';

/** /piibs/loginEP: the same sign-in for project-insurance enterprises. */
export default function LoginEpPage() {
  return (
    <AuthLayout title={T.epHeading} subtitle={T.passwordLoginSubtitle}>
      <LoginForm landing={EP_LANDING} links={<Link to="/piibs/CAlogin">{T.caLink}</Link>} />
    </AuthLayout>
  );
}

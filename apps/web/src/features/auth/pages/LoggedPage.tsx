import { CheckCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { AuthLayout, authStyles as styles } from '../components/AuthLayout.tsx';
import { AUTH_TEXTS as T } from '../texts.ts';

/**
 * /piibs/logged: "already signed in". The guard sends a signed-in user on to the dashboard before this page
 * renders (spec §2), so it shows only where a route or link opens it directly.
 */
export default function LoggedPage() {
  const navigate = useNavigate();
  return (
    <AuthLayout title={T.loggedTitle}>
      <div className={styles.center}>
        <CheckCircleFilled style={{ fontSize: 48, color: '#52c41a' }} />
        <p className={styles.subtitle} style={{ margin: '16px 0 24px' }}>
          {T.loggedHint}
        </p>
        <Button type="primary" size="large" block onClick={() => navigate(HOME_PATH, { replace: true })}>
          {T.goDashboard}
        </Button>
      </div>
    </AuthLayout>
  );
}

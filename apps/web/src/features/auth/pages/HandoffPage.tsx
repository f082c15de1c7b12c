import { CloseCircleFilled } from '@ant-design/icons';
import type { TokenResult } from '@piibs/shared/auth';
import { Button, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { errorText } from '@/lib/request-inline.ts';
import { useUserStore } from '@/stores/user.ts';
import { exchangeHandoff } from '../api.ts';
import { AuthLayout, authStyles as styles } from '../components/AuthLayout.tsx';
import { safeRedirect } from '../safe-redirect.ts';
import { AUTH_TEXTS as T } from '../texts.ts';

// A hand-off token works once: keep the exchange per token, so a re-run effect (StrictMode) reuses it.
const exchanges = new Map<string, Promise<TokenResult>>();

function exchangeOnce(token: string): Promise<TokenResult> {
  let pending = exchanges.get(token);
  if (!pending) {
    pending = exchangeHandoff(token);
    exchanges.set(token, pending);
  }
  return pending;
}

/**
 * /piibs/insured/start?token=… and /piibs/api/loginByManange?token=…: staff open the enterprise's own pages
 * for it. The one-time token is exchanged for a session, kept in session storage as a bearer value (spec §2),
 * so it ends with the tab and never replaces the device's own sign-in. insured/start lands on the dashboard;
 * loginByManange on its same-site `redirect` parameter when given, else the dashboard.
 */
export default function HandoffPage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const loginHandoff = useUserStore((state) => state.loginHandoff);
  const token = params.get('token')?.trim() ?? '';
  const target = pathname.endsWith('/loginByManange')
    ? (safeRedirect(params.get('redirect')) ?? HOME_PATH)
    : HOME_PATH;
  const [error, setError] = useState<string | null>(token ? null : T.handoffMissing);

  useEffect(() => {
    if (!token) return;
    let live = true;
    exchangeOnce(token).then(
      (result) => {
        if (!live) return;
        loginHandoff(result);
        navigate(target, { replace: true });
      },
      (err: unknown) => {
        if (live) setError(errorText(err) ?? T.handoffFailed);
      },
    );
    return () => {
      live = false;
    };
  }, [token, target, loginHandoff, navigate]);

  return (
    <AuthLayout>
      {error ? (
        <div className={styles.center} role="alert">
          <CloseCircleFilled style={{ fontSize: 48, color: '#ff4d4f' }} />
          <h2 style={{ margin: '16px 0 8px' }}>{T.handoffFailed}</h2>
          <p className={styles.subtitle} style={{ marginBottom: 24 }}>
            {error}
          </p>
          <Link to="/piibs/login">
            <Button type="primary" size="large" block>
              {T.goLogin}
            </Button>
          </Link>
        </div>
      ) : (
        <div className={styles.center}>
          <Spin size="large" />
          <p className={styles.subtitle}>{T.handoffWorking}</p>
        </div>
      )}
    </AuthLayout>
  );
}

import { DEFAULT_SETTINGS, SITE_TITLE } from '@piibs/shared/constants';
import type { SiteSettings } from '@piibs/shared/site';
import { type ReactNode, useEffect, useState } from 'react';
import { FilingLinks } from '@/components/FilingLinks.tsx';
import { request } from '@/lib/http.ts';
import styles from '../auth.module.css';

/**
 * The footer text and filing numbers the administrator set (GET /api/settings/site, public), fetched once the
 * page is up: a plain hook, as the sign-in pages carry no query client; until it answers (or if it fails, which
 * nobody needs to be told about), the default text.
 */
function useSiteFooter(): Partial<SiteSettings> {
  const [site, setSite] = useState<Partial<SiteSettings>>({ footerTxt: DEFAULT_SETTINGS.footerTxt });
  useEffect(() => {
    let live = true;
    request<SiteSettings>({ url: 'api/settings/site', method: 'get', silent: true }).then(
      (answer) => {
        if (live) setSite({ ...answer, footerTxt: answer.footerTxt || DEFAULT_SETTINGS.footerTxt });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return site;
}

function Logo() {
  return (
    <svg className={styles.logo} viewBox="0 0 48 48" aria-hidden="true">
      <path d="M24 3 6 10v12c0 11 7.6 20.6 18 23 10.4-2.4 18-12 18-23V10L24 3Z" fill="#1890ff" />
      <path d="m16 24 6 6 11-12" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/** The frame every sign-in page shares: background, card, brand, footer. Plain markup, light on antd. */
export function AuthLayout({
  title = SITE_TITLE,
  subtitle,
  children,
}: {
  title?: string;
  subtitle?: string;
  children: ReactNode;
}) {
  const site = useSiteFooter();
  return (
    <main className={styles.page}>
      <section className={styles.card}>
        <header className={styles.brand}>
          <Logo />
          <h1 className={styles.title}>{title}</h1>
          {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
        </header>
        {children}
      </section>
      <footer className={styles.footer}>
        <FilingLinks {...site} />
      </footer>
    </main>
  );
}

export { styles as authStyles };

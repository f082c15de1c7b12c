import { DEFAULT_SETTINGS, SITE_TITLE } from '@piibs/shared/constants';
import type { ReactNode } from 'react';
import styles from '../auth.module.css';

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
      <footer className={styles.footer}>{DEFAULT_SETTINGS.footerTxt}</footer>
    </main>
  );
}

export { styles as authStyles };

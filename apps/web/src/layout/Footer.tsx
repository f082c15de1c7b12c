import { useSettingsStore } from '@/stores/settings.ts';
import { useSiteSettings } from './site-settings.ts';

export const ICP_SITE = 'https://beian.miit.gov.cn/';
/** The public-security filing site; its query takes the number's digits. */
export const POLICE_SITE = 'https://beian.mps.gov.cn/#/query/webSearch?code=';

interface FooterProps {
  footerTxt?: string;
  /** ICP filing number (spec §3 `caseNumber`). */
  caseNumber?: string;
  /** Public-security (公安) filing number. */
  policeNumber?: string;
}

/**
 * Spec §1: footer text with the ICP and public-security filing numbers, as the administrator set them on the
 * server (local defaults until they arrive); props override both.
 */
export function Footer(props: FooterProps) {
  const settings = useSettingsStore();
  const { data: site } = useSiteSettings();
  const footerTxt = props.footerTxt ?? (site?.footerTxt || settings.footerTxt);
  const caseNumber = props.caseNumber ?? (site?.caseNumber || settings.caseNumber);
  const policeNumber = props.policeNumber ?? (site?.policeNumber || settings.policeNumber);
  return (
    <footer className="shell-footer">
      {footerTxt && <span>{footerTxt}</span>}
      {caseNumber && (
        <a href={ICP_SITE} target="_blank" rel="noreferrer">
          {caseNumber}
        </a>
      )}
      {policeNumber && (
        <a href={`${POLICE_SITE}${policeNumber.replace(/\D/g, '')}`} target="_blank" rel="noreferrer">
          {policeNumber}
        </a>
      )}
    </footer>
  );
}

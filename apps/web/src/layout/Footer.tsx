import { FilingLinks } from '@/components/FilingLinks.tsx';
import { useSettingsStore } from '@/stores/settings.ts';
import { useSiteSettings } from './site-settings.ts';

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
      <FilingLinks footerTxt={footerTxt} caseNumber={caseNumber} policeNumber={policeNumber} />
    </footer>
  );
}

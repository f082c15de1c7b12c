import type { SiteSettings } from '@piibs/shared/site';

export const ICP_SITE = 'https://beian.miit.gov.cn/';
/** The public-security filing site; its query takes the number's digits. */
export const POLICE_SITE = 'https://beian.mps.gov.cn/#/query/webSearch?code=';

/**
 * The footer's text and the ICP and public-security filing numbers, each number linked to its registry. Shared
 * by the shell's footer and the public sign-in pages (where the regulations expect the numbers too).
 */
export function FilingLinks({ footerTxt, caseNumber, policeNumber }: Partial<SiteSettings>) {
  return (
    <>
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
    </>
  );
}

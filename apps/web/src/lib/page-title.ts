import { SITE_TITLE } from '@piibs/shared/constants';

/** Spec §2: "The page title is the route's title followed by the site title". */
export function pageTitle(title?: string): string {
  return title ? `${title} - ${SITE_TITLE}` : SITE_TITLE;
}

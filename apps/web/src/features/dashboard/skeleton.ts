// Which sections the dashboard will most likely show, from the user's roles and permissions — only to draw
// placeholders of the right size while GET /api/dashboard answers (the server decides what it answers, by the
// same rules: apps/server/src/modules/dashboard/routes.ts), so the page does not jump when the figures arrive.
import { TASK_KIND_PERMISSIONS } from '@piibs/shared/review';
import { ROLE_CODES } from '@piibs/shared/role-codes';
import type { PermissionSubject } from '@/lib/permission.tsx';
import { can } from '@/lib/permission.tsx';

export type SectionKey = 'business' | 'review' | 'management' | 'service' | 'system';

/** A section's placeholder: how many key-figure tiles, and the heights of its chart cards. */
export const SECTION_SHAPES: Readonly<Record<SectionKey, { figures: number; charts: readonly number[] }>> = {
  business: { figures: 0, charts: [280, 280, 220] },
  review: { figures: 5, charts: [280, 280] },
  management: { figures: 3, charts: [280, 280, 280, 280, 280] },
  service: { figures: 5, charts: [280, 280] },
  system: { figures: 4, charts: [280] },
};

const HOLDERS: readonly string[] = [ROLE_CODES.agent, ROLE_CODES.enterprise, ROLE_CODES.contractor];
const OUTSIDE: readonly string[] = [...HOLDERS, ROLE_CODES.service];

/** The sections, in the order the page shows them. */
export function expectedSections(subject: PermissionSubject): SectionKey[] {
  const admin = subject.roles.includes(ROLE_CODES.admin);
  const staff = admin || subject.roles.some((r) => !OUTSIDE.includes(r));
  const out: SectionKey[] = [];
  if (subject.roles.some((r) => HOLDERS.includes(r))) out.push('business');
  if (can(Object.values(TASK_KIND_PERMISSIONS), subject)) out.push('review');
  if (staff && can('application:list', subject)) out.push('management');
  if (subject.roles.includes(ROLE_CODES.service)) out.push('service');
  if (can('monitor:list', subject)) out.push('system');
  return out;
}

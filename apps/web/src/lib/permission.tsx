import { REDUCED_SHELL_ROLE } from '@piibs/shared/constants';
import type { ReactNode } from 'react';
import { useUserStore } from '@/stores/user.ts';

/**
 * Spec §5 permission directive: true when the user holds one of the `required` roles. `required` must be a
 * non-empty list of role names, otherwise it errors (a typo such as `roles="admin"` must fail loudly, not
 * silently show or hide the element). The server decides for real; this only shapes what is shown.
 */
export function can(userRoles: readonly string[], required: readonly string[]): boolean {
  if (!Array.isArray(required) || required.length === 0 || !required.every((r) => typeof r === 'string')) {
    throw new Error("Permission check needs a non-empty list of role names, e.g. <Auth roles={['admin']}>");
  }
  return required.some((role) => userRoles.includes(role));
}

/** Whether the signed-in user holds one of the roles; re-renders when the roles change. */
export function useCan(required: readonly string[]): boolean {
  const roles = useUserStore((state) => state.roles);
  return can(roles, required);
}

/** Renders its children only for a user holding one of `roles`; otherwise nothing is in the page. */
export function Auth({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  return useCan(roles) ? children : null;
}

/** Spec §6: CA-login users and role '17' get the reduced shell (no home crumb/tab, no logo link …). */
export function isReducedShell(roles: readonly string[], isCA: boolean): boolean {
  return isCA || roles.includes(REDUCED_SHELL_ROLE);
}

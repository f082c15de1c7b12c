import { REDUCED_SHELL_ROLE } from '@piibs/shared/constants';
import { ROLE_CODES } from '@piibs/shared/role-codes';
import type { ReactNode } from 'react';
import { useUserStore } from '@/stores/user.ts';

/*
 * The one permission model. A code is a permission code the server checks ('user:add') or a role name
 * ('agent'): a user holds their roles and the permission codes GET /api/auth/info lists (eladmin folds both
 * into one list the same way), and the admin role holds every code, as on the server. The server decides for
 * real; this only shapes what is shown.
 */

/** One code, or a non-empty list of which any will do. */
export type PermissionCodes = string | readonly string[];

/** What a permission check looks at: the user's roles and, when the server sends them, permission codes. */
export interface PermissionSubject {
  roles: readonly string[];
  /** Codes such as 'user:add' from GET /api/auth/info; undefined while the server does not send them. */
  permissions?: readonly string[] | undefined;
}

/** The permission codes a user record carries (`permissions: string[]`), or undefined when it has none. */
export function permissionsOf(user: unknown): readonly string[] | undefined {
  const list = (user as { permissions?: unknown } | null | undefined)?.permissions;
  return Array.isArray(list) && list.every((code) => typeof code === 'string') ? list : undefined;
}

/** The signed-in user as a permission subject. */
function currentSubject(): PermissionSubject {
  const { roles, user } = useUserStore.getState();
  return { roles, permissions: permissionsOf(user) };
}

/**
 * True when the subject (by default the signed-in user) holds one of the codes. Spec §5: the check needs a
 * code or a non-empty list of them, otherwise it errors — a mistake such as `code={[]}` must fail loudly, not
 * silently show or hide the element.
 */
export function can(codes: PermissionCodes, subject: PermissionSubject = currentSubject()): boolean {
  const list: readonly unknown[] = typeof codes === 'string' ? [codes] : codes;
  if (!Array.isArray(list) || list.length === 0 || !list.every((c) => typeof c === 'string' && c !== '')) {
    throw new Error(
      `Permission check needs a code or a non-empty list of them, e.g. "user:add" or ['admin']`,
    );
  }
  if (subject.roles.includes(ROLE_CODES.admin)) return true;
  return list.some((code) => subject.roles.includes(code) || subject.permissions?.includes(code) === true);
}

/**
 * Whether the signed-in user holds one of the codes; re-renders when the user changes. Undefined (an action
 * the screen does not have) is never allowed.
 */
export function useCan(codes: PermissionCodes | undefined): boolean {
  const roles = useUserStore((state) => state.roles);
  const user = useUserStore((state) => state.user);
  return codes === undefined ? false : can(codes, { roles, permissions: permissionsOf(user) });
}

/**
 * The permission component (spec §5's directive): its children for a user holding one of the codes,
 * otherwise `fallback` (by default nothing: the element is not in the page).
 */
export function Can({
  code,
  fallback = null,
  children,
}: {
  code: PermissionCodes;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  return useCan(code) ? children : fallback;
}

/**
 * Spec §6: users who signed in with a certificate and users of the enterprise role get the reduced shell (no
 * home crumb or tab, no logo link, the last tab stays, the root menu is hidden).
 */
export function isReducedShell(session: { roles: readonly string[]; isCA: boolean }): boolean {
  return session.isCA || session.roles.includes(REDUCED_SHELL_ROLE);
}

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

/** The role that holds every permission, on the server as here. */
const ADMIN_ROLE = 'admin';

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

/**
 * True when the subject holds one of the permission codes the server checks (`'user:add'`, or a non-empty
 * list of which any will do). The admin role holds them all, as on the server. Without codes from the server
 * nothing else passes: a button the server would refuse is not shown. Errors on an empty code, like `can`.
 */
export function canDo(subject: PermissionSubject, required: string | readonly string[]): boolean {
  const codes = typeof required === 'string' ? [required] : required;
  if (!Array.isArray(codes) || codes.length === 0 || !codes.every((c) => typeof c === 'string' && c !== '')) {
    throw new Error('Permission check needs a permission code or a non-empty list of them, e.g. "user:add"');
  }
  if (subject.roles.includes(ADMIN_ROLE)) return true;
  return codes.some((code) => subject.permissions?.includes(code) === true);
}

/**
 * Whether the signed-in user holds one of the permission codes; re-renders when the user changes. Undefined
 * (an action the screen does not have) is never allowed.
 */
export function useCanDo(required: string | readonly string[] | undefined): boolean {
  const roles = useUserStore((state) => state.roles);
  const user = useUserStore((state) => state.user);
  return required === undefined ? false : canDo({ roles, permissions: permissionsOf(user) }, required);
}

type AuthProps =
  | { roles: readonly string[]; permission?: undefined; children: ReactNode }
  | {
      /** A permission code the server checks ('user:add'), or a list of which any will do. */
      permission: string | readonly string[];
      /** Roles that also pass: the fallback while the server sends no permission codes. */
      roles?: readonly string[];
      children: ReactNode;
    };

function PermissionGate({
  permission,
  roles,
  children,
}: {
  permission: string | readonly string[];
  roles: readonly string[] | undefined;
  children: ReactNode;
}) {
  const allowedByCode = useCanDo(permission);
  const userRoles = useUserStore((state) => state.roles);
  const allowed = allowedByCode || (roles !== undefined && can(userRoles, roles));
  return allowed ? children : null;
}

function RoleGate({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  return useCan(roles) ? children : null;
}

/**
 * The one permission component. `<Auth roles={['admin']}>` renders its children only for a user holding one
 * of the roles (spec §5); `<Auth permission="user:add">` only for a user holding the permission code the
 * server checks for that action (admin: all). Otherwise nothing is in the page.
 */
export function Auth(props: AuthProps) {
  if (props.permission !== undefined) {
    return (
      <PermissionGate permission={props.permission} roles={props.roles}>
        {props.children}
      </PermissionGate>
    );
  }
  return <RoleGate roles={props.roles}>{props.children}</RoleGate>;
}

/** Spec §6: CA-login users and role '17' get the reduced shell (no home crumb/tab, no logo link …). */
export function isReducedShell(roles: readonly string[], isCA: boolean): boolean {
  return isCA || roles.includes(REDUCED_SHELL_ROLE);
}

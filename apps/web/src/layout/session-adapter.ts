/*
 * The shell's only view of the signed-in session, over the identity feature's user store, permission
 * helpers and logout dialog. Everything the layout needs about the user goes through here, so a change
 * there is a change in this file only.
 */
import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppApis } from '@/lib/app-apis.tsx';
import { isReducedShell } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';

export interface ShellSession {
  nickName: string;
  /** The avatar file name; the image is served at /api/avatar/{avatar}. */
  avatar: string | null;
  roles: readonly string[];
  isCA: boolean;
}

export function useShellSession(): ShellSession {
  return useUserStore(
    useShallow((state) => ({
      nickName: state.user?.nickName || state.user?.username || '',
      avatar: state.user?.avatar ?? null,
      roles: state.roles,
      isCA: state.isCA,
    })),
  );
}

/** Spec §6: enterprise-role and CA-login users get the reduced shell. */
export function useReducedShell(): boolean {
  return isReducedShell(useShellSession());
}

/**
 * Spec §4: the identity feature's logout confirm dialog ('Are you sure to log out of the system?'), then
 * the logout. Its module (and antd's Modal with it) loads on the first click, not with the shell.
 */
export function useLogout(): () => void {
  const { modal } = useAppApis();
  return useCallback(() => {
    void import('@/features/account/logout.ts').then(({ confirmLogout }) => confirmLogout(modal));
  }, [modal]);
}

/** The session's token, null when signed out: the notification feed is connected while there is one. */
export function useSessionToken(): string | null {
  return useUserStore((state) => state.token);
}

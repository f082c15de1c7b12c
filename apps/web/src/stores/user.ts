// Types only: the runtime of @piibs/shared/auth (zod) must stay out of the login page's bundle.
import type {
  AuthUser,
  CaLoginForm,
  Channel,
  LoginResult,
  LogoutResult,
  TokenResult,
  UserRoleResult,
} from '@piibs/shared/auth';
import { CA_MARKER_KEY, ROLE_SYSTEM_DEFAULT, TOKEN_KEY } from '@piibs/shared/constants';
import { create } from 'zustand';
import { getToken, removeToken, setToken, toBearer } from '@/lib/auth-storage.ts';
import { EARLY_URLS, earlyOrNow } from '@/lib/early-requests.ts';
import { ApiError, requestInline } from '@/lib/request-inline.ts';
import { usePermissionStore } from './permission.ts';

/**
 * A password sign-in's answer. `mustChangePassword`: the session may only change the password (a one-time
 * password from an administrator), like a psPower-0 answer; nothing is stored then either.
 */
export type SignInResult = LoginResult & { mustChangePassword?: boolean };

/**
 * Whether a sign-in opened a session limited to changing the password. The server says so by refusing every
 * full call with 403 while it does not send a flag; a flag on the answer, when it comes, is read first.
 */
async function limitedToPasswordChange(result: LoginResult): Promise<boolean> {
  const flag =
    (result as { mustChangePassword?: unknown }).mustChangePassword ??
    (result.user as { mustChangePassword?: unknown }).mustChangePassword;
  if (typeof flag === 'boolean') return flag;
  try {
    await requestInline({
      url: 'api/auth/getUserRole',
      method: 'get',
      headers: { Authorization: toBearer(result.token) },
    });
    return false;
  } catch (error) {
    return error instanceof ApiError && error.status === 403;
  }
}

/** Spec §3 login payload. */
export type LoginPayload = {
  username: string;
  password: string;
  code: string;
  uuid: string;
  psPower: number;
};

const LOGIN_PATH = '/piibs/login';

/** Spec §6: "A user with none gets ROLE_SYSTEM_DEFAULT". */
export function rolesOf(user: Pick<AuthUser, 'roles'> | null | undefined): string[] {
  return user?.roles?.length ? [...user.roles] : [ROLE_SYSTEM_DEFAULT];
}

function readCaMarker(): boolean {
  try {
    return localStorage.getItem(CA_MARKER_KEY) !== null;
  } catch {
    return false;
  }
}

function writeCaMarker(on: boolean): void {
  try {
    if (on) localStorage.setItem(CA_MARKER_KEY, 'true');
    else localStorage.removeItem(CA_MARKER_KEY);
  } catch {
    // Storage unavailable: the marker lives in the store for this page only.
  }
}

/** Full-page navigation, behind an object so tests can observe it (jsdom cannot navigate). */
export const browser = {
  assign(url: string): void {
    window.location.href = url;
  },
};

interface UserState {
  token: string | null;
  user: AuthUser | null;
  /** Empty until the user is known; then never empty (ROLE_SYSTEM_DEFAULT at least). */
  roles: string[];
  role: string | null;
  channel: Channel | null;
  iSeeSwitch: boolean;
  /** True until the menus were loaded after a sign-in (spec §4). */
  loadMenus: boolean;
  /** The session was opened with a certificate (CA marker in local storage). */
  isCA: boolean;

  /**
   * Password sign-in. psPower 0: nothing is stored and the answer is handed back (its token may only change
   * the password). Otherwise the token is stored, the user set and the menus marked for loading.
   */
  login(form: LoginPayload): Promise<SignInResult>;
  /** Certificate sign-in: sets the CA marker, stores the token and marks the menus for loading. */
  loginCA(form: CaLoginForm): Promise<TokenResult>;
  /** A hand-off session: the token is kept in session storage as a bearer value, so it ends with the tab. */
  loginHandoff(result: TokenResult): void;
  /** Loads /api/auth/info and /api/auth/getUserRole. */
  getInfo(): Promise<AuthUser>;
  setUser(user: AuthUser): void;
  setLoadMenus(loadMenus: boolean): void;
  /** Revokes the token on the server (best effort) and clears the session; answers the jump URL. */
  endSession(): Promise<string>;
  /** Spec §4 logout: clears token, roles and CA marker, then goes to the server's jumpUrl. */
  logout(): Promise<void>;
  /** Forgets the session locally: token, user, roles, CA marker, menus. */
  clearSession(): void;
}

const signedOut = {
  token: null,
  user: null,
  roles: [],
  role: null,
  channel: null,
  iSeeSwitch: false,
  loadMenus: false,
  isCA: false,
} satisfies Partial<UserState>;

export const useUserStore = create<UserState>((set, get) => {
  /** The role summary is secondary: the shell works without it, so a failure only leaves it empty. */
  const loadRole = async (): Promise<void> => {
    try {
      const info = await earlyOrNow<UserRoleResult>(EARLY_URLS.role);
      set({ role: info.role, channel: info.channel, iSeeSwitch: info.iSeeSwitch });
    } catch {
      // Keep the channel the user record carries.
    }
  };

  const signedIn = (token: string, user: AuthUser, isCA: boolean) => {
    writeCaMarker(isCA);
    set({ token, user, roles: rolesOf(user), channel: user.channel, loadMenus: true, isCA });
    void loadRole();
  };

  return {
    ...signedOut,
    token: getToken(),
    isCA: readCaMarker(),

    async login(form) {
      const body = new URLSearchParams({
        username: form.username.trim(),
        password: form.password,
        code: form.code.trim(),
        uuid: form.uuid,
        psPower: String(form.psPower),
      });
      const result = await requestInline<LoginResult>({
        url: 'api/auth/login',
        method: 'post',
        // Spec §7: form-encoded. The client's JSON default would otherwise win.
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        data: body.toString(),
      });
      if (result.psPower === 0) return result;
      if (await limitedToPasswordChange(result)) return { ...result, mustChangePassword: true };
      // A hand-off session in this tab must not shadow the user's own sign-in.
      removeToken();
      setToken(result.token);
      signedIn(result.token, result.user, false);
      return result;
    },

    async loginCA(form) {
      const result = await requestInline<TokenResult>({
        url: 'api/auth/loginCA',
        method: 'post',
        data: form,
      });
      removeToken();
      setToken(result.token);
      signedIn(result.token, result.user, true);
      return result;
    },

    loginHandoff(result) {
      removeToken();
      const bearer = toBearer(result.token);
      sessionStorage.setItem(TOKEN_KEY, bearer);
      signedIn(bearer, result.user, false);
    },

    async getInfo() {
      // A 401 here means a stale token: the guard signs the user out quietly instead of opening the
      // "session expired" dialog on the way to the login page.
      const user = await earlyOrNow<AuthUser>(EARLY_URLS.info);
      set({ user, roles: rolesOf(user), channel: user.channel, token: getToken() });
      await loadRole();
      return user;
    },

    setUser(user) {
      set({ user, roles: rolesOf(user) });
    },

    setLoadMenus(loadMenus) {
      set({ loadMenus });
    },

    async endSession() {
      let jumpUrl = LOGIN_PATH;
      if (getToken()) {
        try {
          jumpUrl = (await requestInline<LogoutResult>({ url: 'api/auth/logout', method: 'post' })).jumpUrl;
        } catch {
          // An expired token or an unreachable server: the local session ends all the same.
        }
      }
      get().clearSession();
      return jumpUrl;
    },

    async logout() {
      browser.assign(await get().endSession());
    },

    clearSession() {
      removeToken();
      writeCaMarker(false);
      set({ ...signedOut });
      usePermissionStore.getState().reset();
    },
  };
});

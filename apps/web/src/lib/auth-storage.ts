import { TOKEN_KEY } from '@piibs/shared/constants';

// Storage can throw (disabled cookies, some private modes); a missing store then just means "no token".
function read(storage: () => Storage): string | null {
  try {
    return storage().getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * The signed-in token. Local storage holds the normal session; session storage holds the bearer value
 * a hand-off link (/piibs/insured/start?token=…) brings, which must not outlive the tab.
 */
export function getToken(): string | null {
  return read(() => localStorage) ?? read(() => sessionStorage);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function removeToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing stored where storage is unavailable.
  }
}

/** The Authorization value for a token, whether or not it already carries the scheme. */
export function toBearer(token: string): string {
  return /^Bearer /i.test(token) ? token : `Bearer ${token}`;
}

/** The Authorization value of the signed-in session (what every API call sends), or null when signed out. */
export function authorization(): string | null {
  const token = getToken();
  return token ? toBearer(token) : null;
}

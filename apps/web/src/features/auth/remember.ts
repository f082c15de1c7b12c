// "Remember me" keeps only the username, never the password (a deliberate deviation from the original,
// which kept an encrypted password in a cookie).
const REMEMBER_KEY = 'piibs-remember-username';

export function rememberedUsername(): string | null {
  try {
    return localStorage.getItem(REMEMBER_KEY);
  } catch {
    return null;
  }
}

export function rememberUsername(username: string | null): void {
  try {
    if (username) localStorage.setItem(REMEMBER_KEY, username);
    else localStorage.removeItem(REMEMBER_KEY);
  } catch {
    // Nothing to remember where storage is unavailable.
  }
}

const APP_PREFIX = '/piibs/';

/**
 * The in-app target of a `redirect` query parameter, or null when it is not a same-site `/piibs/` path.
 * Refuses scheme-relative (`//evil.com`) and absolute URLs, backslashes (browsers read `/\evil.com` as a host),
 * control characters, and dot segments, plain or percent-encoded, that could climb out of `/piibs/`.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (typeof target !== 'string' || target.length > 2048) return null;
  if (!target.startsWith(APP_PREFIX)) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return null;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\\\u0000-\u001f\u007f]/.test(decoded) || decoded.startsWith('//')) return null;
  const path = decoded.split(/[?#]/, 1)[0] ?? '';
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  // The URL parser is the final word: the target must stay on this origin and under /piibs/.
  const base = 'http://piibs.invalid';
  const url = new URL(target, base);
  if (url.origin !== base || !url.pathname.startsWith(APP_PREFIX)) return null;
  return target;
}

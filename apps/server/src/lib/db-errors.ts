/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
export function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** True for a unique-constraint violation (23505). */
export const isUniqueViolation = (err: unknown) => pgCode(err) === '23505';

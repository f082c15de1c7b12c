// Which seed items an installation has already received, so a new release can add what it introduces (a new
// menu, button, grant or dictionary) to a database set up by an older one, without bringing back what an
// administrator has since removed. Kept in system_setting under `seed.<scope>`.
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { systemSettings } from '../db/schema.ts';

const keyOf = (scope: string) => `seed.${scope}`;

/** The keys applied so far, or null for a database set up before they were recorded. */
export async function appliedSeedKeys(tx: Db | Tx, scope: string): Promise<Set<string> | null> {
  const [row] = await tx
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, keyOf(scope)));
  return row ? new Set(row.value as string[]) : null;
}

/** Records the keys as applied (the whole current list: keys of items since dropped from the seed go). */
export async function recordSeedKeys(tx: Db | Tx, scope: string, keys: Iterable<string>): Promise<void> {
  const value = [...new Set(keys)].sort();
  await tx
    .insert(systemSettings)
    .values({ key: keyOf(scope), value })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value, updatedAt: sql`now()` } });
}

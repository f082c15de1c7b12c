// The daily backup (pg-boss queue `backup-daily`, see jobs/boss.ts): one backup file a day under
// PIIBS_BACKUP_DIR (default DATA_DIR/backups), the newest PIIBS_BACKUP_KEEP (default 7) kept, older ones
// removed. PIIBS_BACKUP_KEEP=0 turns it off.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createBackup } from './archive.ts';
import type { BackupSettings } from './settings.ts';

const NAME = /^piibs-backup-\d{8}-\d{6}\.tar\.gz$/;

/** The file name of a backup taken at `now` (UTC), sorting in time order. */
export function backupName(now: Date): string {
  const s = now.toISOString();
  return `piibs-backup-${s.slice(0, 10).replaceAll('-', '')}-${s.slice(11, 19).replaceAll(':', '')}.tar.gz`;
}

/** Takes one backup into the settings' directory and removes all but the newest `keep`; answers its path. */
export async function scheduledBackup(
  opts: { databaseUrl: string; dataDir: string; settings: BackupSettings; log?: (line: string) => void },
  now = new Date(),
): Promise<string> {
  const out = path.join(opts.settings.dir, backupName(now));
  await createBackup({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, out, log: opts.log });
  const names = (await readdir(opts.settings.dir)).filter((n) => NAME.test(n)).sort();
  for (const old of names.slice(0, Math.max(0, names.length - opts.settings.keep)))
    await rm(path.join(opts.settings.dir, old), { force: true });
  // A backup interrupted by a stop leaves its partial file: gone after a day.
  for (const n of await readdir(opts.settings.dir)) {
    if (!n.endsWith('.partial')) continue;
    const s = await stat(path.join(opts.settings.dir, n)).catch(() => null);
    if (s && now.getTime() - s.mtimeMs > 86_400_000)
      await rm(path.join(opts.settings.dir, n), { force: true });
  }
  return out;
}

// The daily backup's settings, read by loadConfig(): PIIBS_BACKUP_DIR (default DATA_DIR/backups) and
// PIIBS_BACKUP_KEEP (default 7; 0 turns the daily backup off).
import path from 'node:path';
import { ConfigError } from '../config-error.ts';

export interface BackupSettings {
  /** Where the daily backups go. */
  dir: string;
  /** How many are kept (0: no daily backup). */
  keep: number;
}

export function backupSettingsFrom(env: NodeJS.ProcessEnv, dataDir: string): BackupSettings {
  const keep = Number(env.PIIBS_BACKUP_KEEP ?? 7);
  if (!Number.isInteger(keep) || keep < 0 || keep > 3650)
    throw new ConfigError(`PIIBS_BACKUP_KEEP must be a whole number 0-3650, got "${env.PIIBS_BACKUP_KEEP}"`);
  return { dir: path.resolve(env.PIIBS_BACKUP_DIR || path.join(dataDir, 'backups')), keep };
}

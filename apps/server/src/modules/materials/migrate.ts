// Copies stored files from one storage to another (the local directory to a bucket: `npm run storage:migrate`)
// and proves every copy by its SHA-256, read back from the target. A key the target holds already is compared,
// not copied again, so the command can be run again after an interruption; a key the target holds with other
// bytes is reported and left alone.
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { type FileStorage, sha256Of } from './file-storage.ts';

export interface MigrationReport {
  /** Copied now and read back with the same SHA-256. */
  copied: number;
  /** Already in the target with the same SHA-256. */
  present: number;
  /** Keys that failed: in the target with other bytes, read back wrong, or an error. */
  failed: { key: string; why: string }[];
  bytes: number;
}

export async function migrateFiles(
  source: FileStorage,
  target: FileStorage,
  log: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, present: 0, failed: [], bytes: 0 };
  for await (const key of source.keys()) {
    try {
      const stream = await source.get(key);
      if (!stream) continue; // removed meanwhile
      // Materials are at most 10 MB: one file in memory at a time.
      const bytes = await buffer(stream);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const existing = await target.get(key);
      if (existing) {
        const there = await sha256Of(existing);
        if (there.sha256 === sha256) report.present++;
        else report.failed.push({ key, why: `target holds other bytes (sha256 ${there.sha256})` });
        continue;
      }
      await target.put(key, bytes);
      const back = await target.get(key);
      const check = back ? await sha256Of(back) : null;
      if (check?.sha256 !== sha256) {
        report.failed.push({ key, why: check ? `read back sha256 ${check.sha256}` : 'not found after copy' });
        continue;
      }
      report.copied++;
      report.bytes += bytes.length;
      if (report.copied % 100 === 0) log(`${report.copied} files copied …`);
    } catch (err) {
      report.failed.push({ key, why: (err as Error).message });
    }
  }
  return report;
}

// npm run storage:migrate — copies the stored files under DATA_DIR/materials to the bucket named by
// PIIBS_STORAGE=s3 and the PIIBS_S3_* settings, checking each copy's SHA-256 read back from the bucket. Run it
// with the same environment as the server (before switching the servers to s3, and once more after, for files
// uploaded in between). Safe to repeat: files already in the bucket with the same bytes are not copied again.
// Exits 1 when any file failed (listed), 0 otherwise. The local files are left in place.
import { loadConfig } from '../../config.ts';
import { ConfigError } from '../../config-error.ts';
import { migrateFiles } from './migrate.ts';
import { S3FileStorage } from './s3-storage.ts';
import { FsMaterialStorage, materialStorageFor, materialsDir } from './storage.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const config = loadConfig();
  const target = materialStorageFor(config);
  if (!(target instanceof S3FileStorage)) {
    throw new ConfigError(
      '请先设置 PIIBS_STORAGE=s3 与 PIIBS_S3_*（迁移的目标存储桶） / set PIIBS_STORAGE=s3 and the PIIBS_S3_* settings (the bucket to copy to) first',
    );
  }
  await target.check();
  const source = new FsMaterialStorage(materialsDir(config.dataDir));
  say(`copying stored files from ${source.where} to ${target.where} …`);
  const started = Date.now();
  const r = await migrateFiles(source, target, say);
  say(
    `${r.copied} copied (${(r.bytes / 1048576).toFixed(1)} MB), ${r.present} already in the bucket, ` +
      `${r.failed.length} failed — every copy read back with the same SHA-256 (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  for (const f of r.failed) say(`  FAILED ${f.key}: ${f.why}`);
  return r.failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `storage:migrate: ${err instanceof ConfigError ? err.message : ((err as Error).stack ?? String(err))}\n`,
    );
    process.exit(1);
  },
);

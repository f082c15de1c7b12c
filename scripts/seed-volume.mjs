// `npm run seed:volume [-- <applications>]`: the volume data set (default 100,000 applications, a quarter of
// them issued as policies, see apps/server/src/demo/volume.ts) on top of the demo data, reproducibly, in one
// transaction. Idempotent.
//
// Database: DATABASE_URL when set (the server may keep running), otherwise the embedded PostgreSQL under
// DATA_DIR (default ./data), started here the way the server starts it — so stop the server on that DATA_DIR
// first (its lock refuses a second process).
import { onPinnedNode } from './ensure.mjs';

onPinnedNode();

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
  process.stderr.write(
    `[piibs] seed-volume: the number of applications must be 1–1000000, got "${process.argv[2]}"\n`,
  );
  process.exit(1);
}

const path = await import('node:path');
const { loadConfig, loadSecrets } = await import('../apps/server/src/config.ts');
const { connect, runMigrations } = await import('../apps/server/src/db/client.ts');
const { lockDataDir, startEmbeddedPostgres } = await import('../apps/server/src/db/embedded.ts');
const { onStart } = await import('../apps/server/src/startup.ts');
const { seedVolume, volumeSeeded } = await import('../apps/server/src/demo/volume.ts');

const say = (line) => process.stdout.write(`[piibs] ${line}\n`);
let config;
try {
  config = loadConfig();
} catch (err) {
  process.stderr.write(`[piibs] seed-volume: ${err.message}\n`);
  process.exit(1);
}
let embedded;
let unlock;
let url = config.databaseUrl;
try {
  if (!url) {
    unlock = lockDataDir(config.dataDir);
    embedded = await startEmbeddedPostgres({
      clusterDir: path.join(config.dataDir, 'pg'),
      password: loadSecrets(config.dataDir).dbPassword,
      log: say,
    });
    url = embedded.url;
  }
  const database = connect(url, 4);
  try {
    await runMigrations(database);
    // The volume builds on the demo data set: the organisation, its accounts and the seeded products (not
    // again once the volume is there: the demo's start-up work grows with it).
    if (!(await volumeSeeded(database.db)))
      await onStart({ config: { ...config, demo: true }, database, log: say });
    const result = await seedVolume(database.db, {
      applications: count,
      merchantId: config.business.merchantId,
      log: say,
    });
    say(
      result.created
        ? `seed-volume: done, ${result.applications} applications, ${result.policies} policies in ${(result.ms / 1000).toFixed(1)} s`
        : result.policies === null
          ? `seed-volume: already there (${result.applications} applications), made before the set issued policies: its policy lists are empty; seed a new DATA_DIR to measure them`
          : `seed-volume: already there (${result.applications} applications, ${result.policies} policies); nothing to do`,
    );
  } finally {
    await database.close();
  }
} catch (err) {
  // drizzle's error carries the whole statement and its parameters: show the database's reason.
  process.stderr.write(`[piibs] seed-volume failed: ${(err.cause ?? err).message ?? err}\n`);
  process.exitCode = 1;
} finally {
  await embedded?.stop();
  unlock?.();
}

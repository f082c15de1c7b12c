import path from 'node:path';
import { loadConfig, loadSecrets } from './config.ts';
import { ConfigError } from './config-error.ts';
import { type EmbeddedPostgres, lockDataDir, StartupError, startEmbeddedPostgres } from './db/embedded.ts';
import { S3FileStorage } from './modules/materials/s3-storage.ts';
import { materialStorageFor } from './modules/materials/storage.ts';

const say = (line: string) => process.stdout.write(`[piibs] ${line}\n`);

async function main() {
  const config = loadConfig();
  const files = materialStorageFor(config);
  if (files instanceof S3FileStorage) {
    await files.check();
    say(`stored files (materials) in ${files.where}`);
  }
  let embeddedPg: EmbeddedPostgres | undefined;
  let unlock: (() => void) | undefined;
  let url = config.databaseUrl;
  // Set once the server runs: how it stops (SIGINT, SIGTERM, or its embedded database lost for good).
  let stop: ((why: string, code: number) => Promise<void>) | undefined;
  // The rest of the server (about a second of module loading) loads while the embedded PostgreSQL starts.
  const loadRest = () => Promise.all([import('./db/client.ts'), import('./startup.ts'), import('./app.ts')]);
  let rest: ReturnType<typeof loadRest> | undefined;
  if (!url) {
    unlock = lockDataDir(config.dataDir);
    const started = Date.now();
    embeddedPg = await startEmbeddedPostgres({
      clusterDir: path.join(config.dataDir, 'pg'),
      password: loadSecrets(config.dataDir).dbPassword!,
      log: say,
      // It died and could not be restarted: exit non-zero, for a supervisor to restart the whole server.
      onFailure: (err) => {
        process.stderr.write(`[piibs] cannot continue: ${err.message}\n`);
        if (stop) void stop('embedded PostgreSQL lost', 1);
        else process.exit(1);
      },
      meanwhile: () => {
        rest = loadRest();
        rest.catch(() => {}); // awaited below, once PostgreSQL is up
      },
    });
    url = embeddedPg.url;
    say(`embedded PostgreSQL ready in ${Date.now() - started} ms (data in ${config.dataDir})`);
  }
  const [{ connect, runMigrations }, { onStart }, { buildApp }] = await (rest ?? loadRest());
  const database = connect(url, config.dbPoolSize);
  await runMigrations(database);
  await onStart({ config, database, log: say });
  if (!config.captcha)
    say(
      'WARNING: PIIBS_CAPTCHA=off — captcha answers are not checked. For automation and local trials only.',
    );

  const app = await buildApp({
    config,
    database,
    embedded: Boolean(embeddedPg),
    embeddedServer: embeddedPg,
  });
  let stopping = false;
  stop = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    say(`${why}: stopping`);
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    await embeddedPg?.stop();
    unlock?.();
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop?.('SIGINT', 0));
  process.on('SIGTERM', () => void stop?.('SIGTERM', 0));

  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  say(
    `PIIBS is running at ${config.tls ? 'https' : 'http'}://${config.host}:${port}/piibs/  (Ctrl-C to stop)`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartupError) {
    process.stderr.write(`[piibs] cannot start: ${err.message}\n`);
  } else {
    process.stderr.write(`[piibs] cannot start: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});

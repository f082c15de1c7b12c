import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig, loadSecrets } from './config.ts';
import { ConfigError } from './config-error.ts';
import { connect, runMigrations } from './db/client.ts';
import { type EmbeddedPostgres, lockDataDir, StartupError, startEmbeddedPostgres } from './db/embedded.ts';
import { onStart } from './startup.ts';

const say = (line: string) => process.stdout.write(`[piibs] ${line}\n`);

async function main() {
  const config = loadConfig();
  let embeddedPg: EmbeddedPostgres | undefined;
  let unlock: (() => void) | undefined;
  let url = config.databaseUrl;
  if (!url) {
    unlock = lockDataDir(config.dataDir);
    const started = Date.now();
    embeddedPg = await startEmbeddedPostgres({
      clusterDir: path.join(config.dataDir, 'pg'),
      password: loadSecrets(config.dataDir).dbPassword!,
      log: say,
    });
    url = embeddedPg.url;
    say(`embedded PostgreSQL ready in ${Date.now() - started} ms (data in ${config.dataDir})`);
  }
  const database = connect(url);
  await runMigrations(database);
  await onStart({ config, database, log: say });
  if (!config.captcha)
    say(
      'WARNING: PIIBS_CAPTCHA=off — captcha answers are not checked. For automation and local trials only.',
    );

  const app = await buildApp({ config, database, embedded: Boolean(embeddedPg) });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    await embeddedPg?.stop();
    unlock?.();
    say('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  say(`PIIBS is running at http://${config.host}:${port}/piibs/  (Ctrl-C to stop)`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartupError) {
    process.stderr.write(`[piibs] cannot start: ${err.message}\n`);
  } else {
    process.stderr.write(`[piibs] cannot start: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});

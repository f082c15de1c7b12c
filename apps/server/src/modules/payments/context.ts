// Makes the BusinessContext (app-types.ts) the payment and policy services and their background jobs work with:
// the database, the settings, the payment providers and, while the pg-boss queue runs, the queue that retries
// issuance. One per app instance.
import type { BusinessContext, Log } from '../../app-types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';
import { sandboxKey } from './settings.ts';

export interface ContextDeps {
  db: Db;
  config: Config;
  log: Log;
  /**
   * How the sandbox gateway delivers its notification to our notify endpoint: through the app itself
   * (`app.inject`, a full HTTP request through routing, parsing and verification, with no network hop).
   * Undefined: the sandbox cannot notify (payments are then learnt by query).
   */
  deliver?: ((path: string, body: string) => Promise<{ statusCode: number; body: string }>) | undefined;
}

export function createBusinessContext(deps: ContextDeps): BusinessContext {
  const settings = deps.config.business;
  const sandbox = new SandboxProvider({
    db: deps.db,
    key: () => sandboxKey(settings, deps.config.dataDir),
    merchantId: settings.merchantId,
    deliver: deps.deliver,
    log: deps.log,
  });
  const providers: Record<string, PaymentProvider> = { sandbox };
  return {
    db: deps.db,
    config: deps.config,
    log: deps.log,
    provider: providers[settings.paymentProvider] ?? sandbox,
    providers,
    queue: null,
  };
}

const contexts = new WeakMap<object, BusinessContext>();

/** The context of an app (made on first use; keyed by the app's deps, so every plugin of one app shares it). */
export function businessContext(app: {
  deps: { config: Config; database: { db: Db } };
  log: Log;
  inject: (opts: {
    method: 'POST';
    url: string;
    headers: Record<string, string>;
    payload: string;
  }) => Promise<{ statusCode: number; body: string }>;
}): BusinessContext {
  let ctx = contexts.get(app.deps);
  if (!ctx) {
    ctx = createBusinessContext({
      db: app.deps.database.db,
      config: app.deps.config,
      log: app.log,
      deliver: (url, body) =>
        app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body }),
    });
    contexts.set(app.deps, ctx);
  }
  return ctx;
}

// Background jobs on pg-boss, in the application's own database (schema `pgboss`, made by pg-boss on first
// start), safe with several API instances (one worker takes each job; the cron schedule fires once a minute
// across all instances):
//   payment-expire       every minute and on start: pending payment orders past their expiry → EXPIRED, their
//                        applications → PAYMENT_EXPIRED (expireOverdueOrders); approved endorsements whose
//                        additional premium is unpaid past the same deadline → LAPSED (lapseOverdueChanges)
//   policy-issue-sweep   every minute and on start: paid applications without a policy → issued
//                        (issuePendingPolicies); approved project changes without an endorsement → issued
//                        (issuePendingEndorsements)
//   policy-issue         one paid application whose issuance failed right after payment; retried with
//                        back-off (issuePolicy), up to ISSUE_RETRY_LIMIT times, then the sweep keeps trying
//   policy-expire        hourly and on start: stored policy status follows the period — 未生效 → 有效 on the
//                        start day, → 已到期 after the end day (settlePolicyStatuses)
//   policy-expiring      daily at 09:00 and on start: in-app notice of policies ending within 30 days, once
//                        per policy (notifyExpiringPolicies)
//   backup-daily         daily at 02:30 (Asia/Shanghai): one backup file under PIIBS_BACKUP_DIR, the newest
//                        PIIBS_BACKUP_KEEP kept (scheduledBackup); not scheduled when PIIBS_BACKUP_KEEP=0
//
// The queue starts when the server listens (not in tests, which inject requests and never listen; they call
// the handlers directly) unless PIIBS_JOBS=off, and stops when the app closes (Ctrl-C, tests' close()).
import type { FastifyInstance } from 'fastify';
import { PgBoss } from 'pg-boss';
import type { BusinessContext, IssueQueue } from '../app-types.ts';
import { scheduledBackup } from '../backup/schedule.ts';
import type { BackupSettings } from '../backup/settings.ts';
import { notifyExpiringPolicies } from '../modules/notifications/expiring.ts';
import { businessContext } from '../modules/payments/context.ts';
import { expireOverdueOrders } from '../modules/payments/service.ts';
import { lapseOverdueChanges } from '../modules/policies/changes.ts';
import { settlePolicyStatuses } from '../modules/policies/expiry.ts';
import { issuePendingPolicies, issuePolicy } from '../modules/policies/issue.ts';
import { issuePendingEndorsements } from '../modules/project-orders/endorsements.ts';

export const QUEUES = {
  expire: 'payment-expire',
  sweep: 'policy-issue-sweep',
  issue: 'policy-issue',
  expiring: 'policy-expiring',
  backup: 'backup-daily',
  policyExpire: 'policy-expire',
} as const;

export const ISSUE_RETRY_LIMIT = 10;

export interface JobRunnerOptions {
  /** The database (the app's own). */
  connectionString: string;
  ctx: BusinessContext;
  /** Register the every-minute cron schedules (default true). */
  schedule?: boolean;
  /** Worker polling interval, seconds (default 2). */
  pollingIntervalSeconds?: number;
  /** First retry delay of a failed issuance, seconds (default 10; doubled each time, at most 10 minutes). */
  issueRetryDelaySeconds?: number;
  /** The daily backup of this installation (none when not given or keep is 0). */
  backup?: { dataDir: string; settings: BackupSettings };
}

/** The job handlers, exported so tests (and operators) can run a pass directly. */
export const jobHandlers = {
  expire: async (ctx: BusinessContext) => (await expireOverdueOrders(ctx)) + (await lapseOverdueChanges(ctx)),
  sweep: async (ctx: BusinessContext) => {
    const p = await issuePendingPolicies(ctx);
    const e = await issuePendingEndorsements(ctx);
    return { issued: p.issued + e.issued, failed: p.failed + e.failed };
  },
  issue: async (ctx: BusinessContext, applicationId: number) => {
    await issuePolicy(ctx, applicationId);
  },
  expiring: (ctx: BusinessContext) => notifyExpiringPolicies(ctx.db),
  backup: (databaseUrl: string, backup: { dataDir: string; settings: BackupSettings }) =>
    scheduledBackup({ databaseUrl, ...backup }),
  policyExpire: (ctx: BusinessContext) => settlePolicyStatuses(ctx.db),
};

export class JobRunner implements IssueQueue {
  readonly #o: JobRunnerOptions;
  #boss: PgBoss | null = null;

  constructor(options: JobRunnerOptions) {
    this.#o = options;
  }

  get running(): boolean {
    return this.#boss !== null;
  }

  async start(): Promise<void> {
    if (this.#boss) return;
    const { ctx } = this.#o;
    const boss = new PgBoss({
      connectionString: this.#o.connectionString,
      schema: 'pgboss',
      max: 4,
      application_name: 'piibs-jobs',
      schedule: this.#o.schedule ?? true,
    });
    boss.on('error', (err) => ctx.log.error({ err }, 'job queue error'));
    await boss.start();
    this.#boss = boss;
    try {
      await boss.createQueue(QUEUES.expire, { policy: 'stately', retryLimit: 1, expireInSeconds: 300 });
      await boss.createQueue(QUEUES.sweep, { policy: 'stately', retryLimit: 1, expireInSeconds: 600 });
      await boss.createQueue(QUEUES.issue, {
        retryLimit: ISSUE_RETRY_LIMIT,
        retryDelay: this.#o.issueRetryDelaySeconds ?? 10,
        retryBackoff: true,
        retryDelayMax: 600,
        expireInSeconds: 300,
      });
      await boss.createQueue(QUEUES.expiring, { policy: 'stately', retryLimit: 1, expireInSeconds: 600 });
      const backup = this.#o.backup?.settings.keep ? this.#o.backup : undefined;
      if (backup)
        await boss.createQueue(QUEUES.backup, { policy: 'stately', retryLimit: 2, expireInSeconds: 3600 });
      await boss.createQueue(QUEUES.policyExpire, { policy: 'stately', retryLimit: 1, expireInSeconds: 600 });
      const polling = { pollingIntervalSeconds: this.#o.pollingIntervalSeconds ?? 2 };
      await boss.work(QUEUES.expire, polling, async () => {
        const n = await jobHandlers.expire(ctx);
        if (n) ctx.log.info({ expired: n }, 'payment orders expired, unpaid endorsements lapsed');
      });
      await boss.work(QUEUES.sweep, polling, async () => {
        const r = await jobHandlers.sweep(ctx);
        if (r.issued || r.failed) ctx.log.info(r, 'issuance sweep');
      });
      await boss.work<{ applicationId: number }>(QUEUES.issue, polling, async ([job]) => {
        if (job) await jobHandlers.issue(ctx, job.data.applicationId);
      });
      await boss.work(QUEUES.expiring, polling, async () => {
        const n = await jobHandlers.expiring(ctx);
        if (n) ctx.log.info({ notified: n }, 'expiring policies notified');
      });
      if (backup)
        await boss.work(QUEUES.backup, polling, async () => {
          const file = await jobHandlers.backup(this.#o.connectionString, backup);
          ctx.log.info({ file }, 'daily backup written');
        });
      await boss.work(QUEUES.policyExpire, polling, async () => {
        const n = await jobHandlers.policyExpire(ctx);
        if (n) ctx.log.info({ moved: n }, 'policy statuses follow their periods');
      });
      if (this.#o.schedule ?? true) {
        await boss.schedule(QUEUES.policyExpire, '5 * * * *', null, { tz: 'Asia/Shanghai' });
        await boss.schedule(QUEUES.expire, '* * * * *', null, { tz: 'Asia/Shanghai' });
        await boss.schedule(QUEUES.sweep, '* * * * *', null, { tz: 'Asia/Shanghai' });
        await boss.schedule(QUEUES.expiring, '0 9 * * *', null, { tz: 'Asia/Shanghai' });
        if (backup) await boss.schedule(QUEUES.backup, '30 2 * * *', null, { tz: 'Asia/Shanghai' });
        else await boss.unschedule(QUEUES.backup).catch(() => {});
      }
      // Also once now: orders that expired while the server was down, issuance left half-way.
      await boss.send(QUEUES.expire, {});
      await boss.send(QUEUES.sweep, {});
      await boss.send(QUEUES.expiring, {});
      await boss.send(QUEUES.policyExpire, {});
    } catch (err) {
      await this.stop();
      throw err;
    }
    ctx.queue = this;
  }

  async sendIssue(applicationId: number): Promise<void> {
    if (!this.#boss) throw new Error('job queue is not running');
    await this.#boss.send(QUEUES.issue, { applicationId }, { singletonKey: `application-${applicationId}` });
  }

  /** Stops the workers (waiting up to `timeoutMs` for running jobs) and closes pg-boss's own connections. */
  async stop(timeoutMs = 5_000): Promise<void> {
    const boss = this.#boss;
    if (!boss) return;
    this.#boss = null;
    if (this.#o.ctx.queue === this) this.#o.ctx.queue = null;
    await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}

/**
 * The jobs plugin: starts the queue when the server starts listening (PIIBS_JOBS=on, the default) and stops it
 * when the app closes. Registered on the root instance (skip-override) so its hooks see the real server.
 */
async function jobsPlugin(app: FastifyInstance): Promise<void> {
  if (!app.deps.config.business.jobs) return;
  const ctx = businessContext(app);
  const runner = new JobRunner({
    connectionString: String(app.deps.database.pool.options.connectionString),
    ctx,
    backup: { dataDir: app.deps.config.dataDir, settings: app.deps.config.backup },
  });
  app.addHook('onListen', async () => {
    try {
      await runner.start();
      app.log.info('job queue started (payment expiry, policy issuance)');
    } catch (err) {
      app.log.error(
        { err },
        'job queue could not start; payment expiry and issuance retries are not running',
      );
    }
  });
  app.addHook('onClose', async () => {
    await runner.stop();
  });
}
(jobsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export { jobsPlugin };

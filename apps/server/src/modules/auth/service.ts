import {
  type CaLoginForm,
  type LoginForm,
  type LoginResult,
  passwordStrength,
  type TokenResult,
} from '@piibs/shared';
import { and, asc, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-types.ts';
import type { Db } from '../../db/client.ts';
import { customers, loginAttempts, oneTimeTokens, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import { CA_MESSAGES, consumeChallenge, loadTrustedRoots, usccOf, verifyCaSignIn } from './ca.ts';
import { checkCaptcha } from './captcha.ts';
import { verifyPassword } from './passwords.ts';
import { findLoginUser, loadAuthUser } from './repository.ts';
import { openSession, type RequestUser, type SessionMethod, type SessionScope } from './sessions.ts';

/** After this many failed passwords in a row an account is locked (the answer stays 用户名或密码错误) … */
export const MAX_FAILURES = 5;
/** … for this long; attempts during the lock neither count nor extend it. */
export const LOCK_MS = 15 * 60 * 1000;
/**
 * Failed sign-ins from one IP within IP_WINDOW_MS past which that IP is "spent": its sign-ins must solve a captcha
 * (even with PIIBS_CAPTCHA=off) and are answered no sooner than IP_SLOWDOWN_MS after they arrive. It is not
 * refused: behind a proxy that PIIBS does not trust every user shares the proxy's address, and a refusal would
 * lock everybody out, the administrator included.
 */
export const IP_MAX_FAILURES = 50;
export const IP_WINDOW_MS = 15 * 60 * 1000;
export const IP_SLOWDOWN_MS = 2_000;

export const LOGIN_FAILED = '用户名或密码错误';
export const ACCOUNT_DISABLED = '账号已停用';
export const ONE_TIME_USED = '一次性密码已使用，请联系管理员重置密码';
export const CAPTCHA_REQUIRED = '登录失败次数过多，请输入验证码';

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

interface Attempt {
  username: string;
  userId?: number | null;
  method: SessionMethod;
  success: boolean;
  reason?: string | null;
}

export async function recordAttempt(db: Db, client: ClientInfo, a: Attempt): Promise<void> {
  await db.insert(loginAttempts).values({
    username: a.username.slice(0, 64),
    userId: a.userId ?? null,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    method: a.method,
    success: a.success,
    reason: a.reason ?? null,
  });
}

/** Whether the IP has spent its failure budget (counted in the database, so every instance agrees). */
async function ipBudgetSpent(db: Db, client: ClientInfo): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.ip, client.ip),
        eq(loginAttempts.success, false),
        gt(loginAttempts.createdAt, sql`now() - make_interval(secs => ${IP_WINDOW_MS / 1000})`),
        // Refusals by the former hard limit (before issue #21) do not count; the partial index has the same test.
        sql`${loginAttempts.reason} is distinct from 'ip_limited'`,
      ),
    );
  return (row?.n ?? 0) >= IP_MAX_FAILURES;
}

/** Runs a sign-in; from a spent IP its answer, success or failure, comes no sooner than IP_SLOWDOWN_MS. */
async function budgeted<T>(db: Db, client: ClientInfo, signIn: (spent: boolean) => Promise<T>): Promise<T> {
  const started = Date.now();
  const spent = await ipBudgetSpent(db, client);
  try {
    return await signIn(spent);
  } finally {
    const wait = spent ? IP_SLOWDOWN_MS - (Date.now() - started) : 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Counts a failed password. The fifth failure in a row locks the account for 15 minutes and resets the count;
 * a locked account is not touched, so attempts during a lock cannot extend it. Answers true when now locked.
 */
async function countFailure(db: Db, userId: number): Promise<boolean> {
  const reached = sql`${users.failedLogins} + 1 >= ${MAX_FAILURES}`;
  const rows = await db
    .update(users)
    .set({
      failedLogins: sql`case when ${reached} then 0 else ${users.failedLogins} + 1 end`,
      lockedUntil: sql`case when ${reached} then now() + make_interval(secs => ${LOCK_MS / 1000}) else ${users.lockedUntil} end`,
    })
    .where(and(eq(users.id, userId), sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now())`))
    .returning({ locked: sql<boolean>`${users.lockedUntil} is not null and ${users.lockedUntil} > now()` });
  return rows.length === 0 || Boolean(rows[0]?.locked);
}

export interface OpenedSession {
  token: string;
  sessionId: string;
}

async function startSession(
  deps: AppDeps,
  client: ClientInfo,
  userId: number,
  username: string,
  method: SessionMethod,
  scope: SessionScope,
): Promise<OpenedSession> {
  const db = deps.database.db;
  const opened = await openSession(db, deps.config.jwtSecret, {
    userId,
    scope,
    method,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  await recordAttempt(db, client, { username, userId, method, success: true });
  await writeAudit(db, {
    actorId: userId,
    actorName: username,
    action: method === 'password' ? 'login' : `login_${method}`,
    entity: 'session',
    entityId: opened.sessionId,
    detail: { method, scope },
    ip: client.ip,
  });
  return opened;
}

/**
 * Password sign-in: IP budget → captcha (always from a spent IP) → password (always verified) → account lock →
 * disabled account.
 */
export function passwordLogin(deps: AppDeps, form: LoginForm, client: ClientInfo): Promise<LoginResult> {
  return budgeted(deps.database.db, client, (spent) => checkedPasswordLogin(deps, form, client, spent));
}

async function checkedPasswordLogin(
  deps: AppDeps,
  form: LoginForm,
  client: ClientInfo,
  ipSpent: boolean,
): Promise<LoginResult> {
  const db = deps.database.db;
  const username = form.username;
  const fail = async (message: string, reason: string, userId?: number) => {
    await recordAttempt(db, client, { username, userId, method: 'password', success: false, reason });
    return new HttpError(401, message);
  };

  if (deps.config.captcha || ipSpent) {
    try {
      if (ipSpent && !deps.config.captcha && !form.uuid) throw badRequest(CAPTCHA_REQUIRED);
      await checkCaptcha(db, form.uuid, form.code);
    } catch (err) {
      await recordAttempt(db, client, { username, method: 'password', success: false, reason: 'captcha' });
      throw err;
    }
  }

  const user = await findLoginUser(db, username);
  const ok = await verifyPassword(user?.passwordHash, form.password);
  if (!user) throw await fail(LOGIN_FAILED, 'unknown_user');
  if (user.lockedMsLeft > 0) throw await fail(LOGIN_FAILED, 'locked', user.id);
  if (!ok) {
    const locking = await countFailure(db, user.id);
    throw await fail(LOGIN_FAILED, locking ? 'locking' : 'bad_password', user.id);
  }
  if (!user.enabled) throw await fail(ACCOUNT_DISABLED, 'disabled', user.id);
  // A one-time password (new account, administrator reset) signs in once; the change of password clears it.
  if (user.passwordOneTime) {
    const claimed = await db
      .update(users)
      .set({ oneTimeUsedAt: sql`now()` })
      .where(and(eq(users.id, user.id), isNull(users.oneTimeUsedAt)))
      .returning({ id: users.id });
    if (claimed.length === 0) throw await fail(ONE_TIME_USED, 'one_time_used', user.id);
  }

  await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
  const psPower = passwordStrength(form.password);
  const scope: SessionScope = psPower === 0 || user.mustChangePassword ? 'password_change' : 'full';
  const { token } = await startSession(deps, client, user.id, user.username, 'password', scope);
  return {
    token,
    psPower,
    mustChangePassword: scope === 'password_change',
    user: await loadAuthUser(db, user.id),
  };
}

/**
 * Certificate sign-in: IP budget (a spent IP is slowed down; the signed challenge stands in for a captcha) →
 * challenge (used up whatever happens) → chain, dates, signature → user.
 */
export function caLogin(deps: AppDeps, form: CaLoginForm, client: ClientInfo): Promise<TokenResult> {
  return budgeted(deps.database.db, client, () => checkedCaLogin(deps, form, client));
}

async function checkedCaLogin(deps: AppDeps, form: CaLoginForm, client: ClientInfo): Promise<TokenResult> {
  const db = deps.database.db;
  let label = 'CA';
  const fail = async (message: string, reason: string, userId?: number) => {
    await recordAttempt(db, client, { username: label, userId, method: 'ca', success: false, reason });
    return new HttpError(401, message);
  };
  if (!(await consumeChallenge(db, form.challenge))) throw await fail(CA_MESSAGES.challenge, 'challenge');

  let uscc: string | null;
  let fingerprint: string;
  try {
    const leaf = verifyCaSignIn(
      form.certificate,
      form.challenge,
      form.signature,
      loadTrustedRoots(deps.config.dataDir),
    );
    uscc = usccOf(leaf);
    fingerprint = leaf.fingerprint256.replace(/:/g, '').toLowerCase();
  } catch (err) {
    if (err instanceof HttpError) {
      await recordAttempt(db, client, {
        username: label,
        method: 'ca',
        success: false,
        reason: 'certificate',
      });
    }
    throw err;
  }
  if (!uscc) throw await fail(CA_MESSAGES.unbound, 'unbound');
  label = uscc;

  const candidates = await db
    .select({ id: users.id, username: users.username, enabled: users.enabled })
    .from(users)
    .where(eq(users.uscc, uscc))
    .orderBy(desc(users.enabled), sql`${users.channel} = 'enterprise' desc`, asc(users.id))
    .limit(1);
  const user = candidates[0];
  if (!user) throw await fail(CA_MESSAGES.unbound, 'unbound');
  if (!user.enabled) throw await fail(ACCOUNT_DISABLED, 'disabled', user.id);
  // An enterprise that bound its certificate (客户信息 → CA证书) signs in with that certificate only.
  const [bound] = await db
    .select({ fingerprint: customers.caFingerprint })
    .from(customers)
    .where(eq(customers.uscc, uscc));
  if (bound?.fingerprint && bound.fingerprint !== fingerprint)
    throw await fail(CA_MESSAGES.otherCertificate, 'other_certificate', user.id);

  const { token } = await startSession(deps, client, user.id, user.username, 'ca', 'full');
  return { token, user: await loadAuthUser(db, user.id) };
}

// ---- hand-off: staff open the enterprise's own pages for it (insured/start, loginByManange) ----

export const HANDOFF_TTL_MS = 2 * 60 * 1000;
export const HANDOFF_INVALID = '交接令牌无效或已过期';

/** Issues a single-use, 2-minute hand-off token that signs in as the enterprise user `target`. */
export async function issueHandoff(
  deps: AppDeps,
  actor: RequestUser,
  target: { userId?: number | undefined; username?: string | undefined },
  client: ClientInfo,
): Promise<{ token: string; expiresAt: Date; userId: number }> {
  const db = deps.database.db;
  if (!actor.roles.includes('admin') && actor.channel !== 'staff') throw forbidden();
  if (target.userId == null && !target.username) throw badRequest('请指定目标用户');
  const [user] = await db
    .select({ id: users.id, username: users.username, enabled: users.enabled, channel: users.channel })
    .from(users)
    .where(
      target.userId != null
        ? eq(users.id, target.userId)
        : sql`lower(${users.username}) = lower(${target.username})`,
    )
    .limit(1);
  if (!user) throw notFound('目标用户不存在');
  if (user.channel !== 'enterprise') throw badRequest('只能交接到投保企业用户');
  if (!user.enabled) throw badRequest('目标用户已停用');
  const token = randomToken(32);
  const [row] = await db
    .insert(oneTimeTokens)
    .values({
      hash: sha256(token),
      kind: 'handoff',
      userId: user.id,
      createdBy: actor.id,
      expiresAt: sql`now() + make_interval(secs => ${HANDOFF_TTL_MS / 1000})`,
    })
    .returning({ expiresAt: oneTimeTokens.expiresAt });
  await writeAudit(db, {
    actorId: actor.id,
    actorName: actor.username,
    action: 'handoff_issue',
    entity: 'user',
    entityId: user.id,
    detail: { target: user.username },
    ip: client.ip,
  });
  return { token, expiresAt: row!.expiresAt, userId: user.id };
}

/** Exchanges a hand-off token (once) for a normal session of its user. */
export async function exchangeHandoff(
  deps: AppDeps,
  handoffToken: string,
  client: ClientInfo,
): Promise<TokenResult> {
  const db = deps.database.db;
  const [row] = await db
    .delete(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.hash, sha256(handoffToken)),
        eq(oneTimeTokens.kind, 'handoff'),
        isNotNull(oneTimeTokens.userId),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, live: sql<boolean>`${oneTimeTokens.expiresAt} > now()` });
  if (!row?.live || row.userId == null) {
    await recordAttempt(db, client, {
      username: 'handoff',
      method: 'handoff',
      success: false,
      reason: 'handoff',
    });
    throw new HttpError(401, HANDOFF_INVALID);
  }
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.id, row.userId), eq(users.enabled, true)))
    .limit(1);
  if (!user) throw new HttpError(401, HANDOFF_INVALID);
  const { token } = await startSession(deps, client, user.id, user.username, 'handoff', 'full');
  return { token, user: await loadAuthUser(db, user.id) };
}

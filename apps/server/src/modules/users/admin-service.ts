// User administration: list (data scope), create with a one-time password, update (version), enable/disable,
// reset password, delete. Rules: a caller may only manage users inside their data scope (others answer 404)
// whose roles are not more powerful than their own, and may only grant roles of their own level or below
// (eladmin's rule; level 1 is the most powerful); only administrators grant or manage the admin role; the
// last enabled administrator can be neither disabled, deleted nor stripped of the role.
import { randomInt } from 'node:crypto';
import { MASKED_MOBILE, maskPhone, passwordStrength } from '@piibs/shared';
import type { SORT_FIELDS, UserRow, userCreateForm, userUpdateForm } from '@piibs/shared/admin';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { departments, jobs, roles, userJobs, userRoles, users } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { type DataScope, deptSubtree, usersInScope } from '../../lib/data-scope.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { blurry, timeRange } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { hashPassword } from '../auth/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { setUserEnabled } from './service.ts';

export const STALE_VERSION = '数据已被他人修改，请刷新后重试';
export const USER_NOT_FOUND = '用户不存在';
export const LAST_ADMIN = '不能移除最后一个启用的系统管理员';

// ---- one-time passwords ----

const ALPHABETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '#@%+=!?*'];

/** 12 characters from all four classes (no look-alikes such as 0/O, 1/l/I): strength 3. */
export function generatePassword(): string {
  for (;;) {
    const chars = ALPHABETS.map((a) => a[randomInt(a.length)]!);
    const all = ALPHABETS.join('');
    while (chars.length < 12) chars.push(all[randomInt(all.length)]!);
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const pw = chars.join('');
    if (passwordStrength(pw) > 0) return pw;
  }
}

// ---- reading ----

interface RoleRef {
  id: number;
  code: string;
  name: string;
  level: number;
}

const rolesOf = sql<
  RoleRef[]
>`coalesce((select json_agg(json_build_object('id', r.id, 'code', r.code, 'name', r.name, 'level', r.level) order by r.level, r.id) from user_role ur join role r on r.id = ur.role_id where ur.user_id = "app_user"."id"), '[]'::json)`;
const jobsOf = sql<
  { id: number; name: string }[]
>`coalesce((select json_agg(json_build_object('id', j.id, 'name', j.name) order by j.sort, j.id) from user_job uj join job j on j.id = uj.job_id where uj.user_id = "app_user"."id"), '[]'::json)`;

const rowColumns = {
  id: users.id,
  username: users.username,
  nickName: users.nickName,
  phone: users.phone,
  email: users.email,
  gender: users.gender,
  avatar: users.avatar,
  channel: users.channel,
  uscc: users.uscc,
  enabled: users.enabled,
  mustChangePassword: users.mustChangePassword,
  version: users.version,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  deptId: departments.id,
  deptName: departments.name,
  roles: rolesOf,
  jobs: jobsOf,
};

const selectRows = (db: Db | Tx) =>
  db.select(rowColumns).from(users).leftJoin(departments, eq(departments.id, users.deptId));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

function toRow(r: RawRow): UserRow {
  return {
    id: r.id,
    username: r.username,
    nickName: r.nickName,
    phone: maskPhone(r.phone),
    email: r.email,
    gender: r.gender,
    avatar: r.avatar,
    channel: r.channel,
    uscc: r.uscc,
    enabled: r.enabled,
    mustChangePassword: r.mustChangePassword,
    dept: r.deptId != null && r.deptName != null ? { id: r.deptId, name: r.deptName } : null,
    roles: r.roles,
    jobs: r.jobs,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface UserFilter {
  blurry?: string | undefined;
  deptId?: number | undefined;
  enabled?: boolean | undefined;
  channel?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

const sortColumns: SortColumns<(typeof SORT_FIELDS.users)[number]> = {
  id: users.id,
  username: users.username,
  nickName: users.nickName,
  email: users.email,
  enabled: users.enabled,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** The user list within the caller's data scope: blurry text, department (with sub-departments), status, time. */
export async function userListSpec(
  db: Db,
  scope: DataScope,
  f: UserFilter,
): Promise<ListSpec<(typeof SORT_FIELDS.users)[number], UserRow>> {
  const deptIds = f.deptId != null ? await deptSubtree(db, [f.deptId]) : undefined;
  const where = and(
    usersInScope(scope),
    blurry(f.blurry, users.username, users.nickName, users.phone, users.email),
    deptIds ? (deptIds.length ? inArray(users.deptId, deptIds) : sql`false`) : undefined,
    f.enabled !== undefined ? eq(users.enabled, f.enabled) : undefined,
    f.channel ? eq(users.channel, f.channel) : undefined,
    timeRange(users.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: sortColumns,
    defaultOrder: [sql`${users.id} desc`],
    fetch: async (q) => (await pageRows(db, selectRows(db), where, q)).map(toRow),
    count: () => countRows(db, users, where),
  };
}

async function loadRow(db: Db | Tx, id: number): Promise<UserRow> {
  const [row] = await selectRows(db).where(eq(users.id, id));
  if (!row) throw notFound(USER_NOT_FOUND);
  return toRow(row);
}

/** What the audit trail keeps of a user: no password, the phone masked. */
function snapshot(u: {
  username: string;
  nickName: string;
  phone: string | null;
  email: string | null;
  gender: string | null;
  deptId: number | null;
  channel: string;
  uscc: string | null;
  enabled: boolean;
  roleIds: number[];
  jobIds: number[];
}) {
  return {
    username: u.username,
    nickName: u.nickName,
    phone: maskPhone(u.phone),
    email: u.email,
    gender: u.gender,
    deptId: u.deptId,
    channel: u.channel,
    uscc: u.uscc,
    enabled: u.enabled,
    roleIds: [...u.roleIds].sort((a, b) => a - b),
    jobIds: [...u.jobIds].sort((a, b) => a - b),
  };
}

// ---- rules ----

function inScope(scope: DataScope, target: { id: number; deptId: number | null }): boolean {
  if (scope.all) return true;
  return target.id === scope.selfId || (target.deptId != null && scope.deptIds.includes(target.deptId));
}

interface Target {
  id: number;
  username: string;
  nickName: string;
  phone: string | null;
  email: string | null;
  gender: string | null;
  deptId: number | null;
  channel: string;
  uscc: string | null;
  enabled: boolean;
  version: number;
  roleIds: number[];
  jobIds: number[];
  /** Smallest level of the target's roles (or a level no role reaches). */
  level: number;
  isAdmin: boolean;
}

/** Loads (and with `lock`, locks) a user the caller may manage: 404 outside the scope, 403 above the level. */
async function manageable(tx: Tx, caller: Caller, id: number, lock = true): Promise<Target> {
  const q = tx
    .select({
      id: users.id,
      username: users.username,
      nickName: users.nickName,
      phone: users.phone,
      email: users.email,
      gender: users.gender,
      deptId: users.deptId,
      channel: users.channel,
      uscc: users.uscc,
      enabled: users.enabled,
      version: users.version,
    })
    .from(users)
    .where(eq(users.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || !inScope(caller.scope, row)) throw notFound(USER_NOT_FOUND);
  const roleRows = await tx
    .select({ id: roles.id, code: roles.code, level: roles.level })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, id));
  const jobRows = await tx.select({ id: userJobs.jobId }).from(userJobs).where(eq(userJobs.userId, id));
  const target: Target = {
    ...row,
    roleIds: roleRows.map((r) => r.id),
    jobIds: jobRows.map((j) => j.id),
    level: Math.min(1_000_000, ...roleRows.map((r) => r.level)),
    isAdmin: roleRows.some((r) => r.code === 'admin'),
  };
  const callerIsAdmin = caller.user.roles.includes('admin');
  if (target.isAdmin && !callerIsAdmin) throw forbidden('只有系统管理员可以操作系统管理员账号');
  if (target.level < caller.level) {
    throw forbidden(
      `角色权限不足：你的角色级别为 ${caller.level}，不能操作角色级别为 ${target.level} 的用户`,
    );
  }
  return target;
}

/** The roles must exist, be at or below the caller's level, and the admin role only from an administrator. */
async function checkGrant(
  tx: Tx,
  caller: Caller,
  roleIds: number[],
): Promise<{ adminRoleId: number | null }> {
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return { adminRoleId: null };
  const rows = await tx
    .select({ id: roles.id, code: roles.code, name: roles.name, level: roles.level })
    .from(roles)
    .where(inArray(roles.id, unique));
  if (rows.length !== unique.length) throw fieldError('roleIds', '所选角色不存在', '角色');
  for (const r of rows) {
    if (r.code === 'admin' && !caller.user.roles.includes('admin'))
      throw forbidden('只有系统管理员可以授予系统管理员角色');
    if (r.level < caller.level) {
      throw forbidden(
        `角色权限不足：你的角色级别为 ${caller.level}，不能授予级别为 ${r.level} 的角色「${r.name}」`,
      );
    }
  }
  return { adminRoleId: rows.find((r) => r.code === 'admin')?.id ?? null };
}

async function checkDept(tx: Tx, caller: Caller, deptId: number | null | undefined): Promise<void> {
  if (deptId == null) return;
  const [row] = await tx.select({ id: departments.id }).from(departments).where(eq(departments.id, deptId));
  if (!row) throw fieldError('deptId', '所选部门不存在', '部门');
  if (!caller.scope.all && !caller.scope.deptIds.includes(deptId)) throw forbidden('没有该部门的数据权限');
}

async function checkJobs(tx: Tx, jobIds: number[]): Promise<void> {
  const unique = [...new Set(jobIds)];
  if (unique.length === 0) return;
  const rows = await tx.select({ id: jobs.id }).from(jobs).where(inArray(jobs.id, unique));
  if (rows.length !== unique.length) throw fieldError('jobIds', '所选岗位不存在', '岗位');
}

async function usernameTaken(db: Db | Tx, username: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.username}) = lower(${username})`, exceptId ? ne(users.id, exceptId) : undefined),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Serialises changes that could remove the last administrator (locks the admin role row), then refuses when
 * no enabled administrator would be left once `leaving` users stop being enabled administrators.
 */
export async function keepAnAdmin(tx: Pick<Db, 'execute'>, leaving: number[]): Promise<void> {
  await tx.execute(sql`select id from role where code = 'admin' for update`);
  const res = await tx.execute<{ n: number | string }>(sql`
    select count(*) as n from app_user u
    where u.enabled
      and exists (select 1 from user_role ur join role r on r.id = ur.role_id where ur.user_id = u.id and r.code = 'admin')
      ${
        leaving.length
          ? sql`and u.id not in (${sql.join(
              leaving.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql``
      }`);
  if (Number(res.rows[0]?.n ?? 0) === 0) throw badRequest(LAST_ADMIN);
}

async function setLinks(tx: Tx, userId: number, roleIds: number[], jobIds: number[]): Promise<void> {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  await tx.delete(userJobs).where(eq(userJobs.userId, userId));
  const r = [...new Set(roleIds)];
  const j = [...new Set(jobIds)];
  if (r.length) await tx.insert(userRoles).values(r.map((roleId) => ({ userId, roleId })));
  if (j.length) await tx.insert(userJobs).values(j.map((jobId) => ({ userId, jobId })));
}

// ---- changes ----

type CreateInput = z.infer<typeof userCreateForm>;

/** Creates an account with a one-time password (answered once; the first sign-in must change it). */
export async function createUser(
  db: Db,
  caller: Caller,
  form: CreateInput,
): Promise<{ id: number; username: string; password: string }> {
  if (await usernameTaken(db, form.username)) throw conflict('用户名已存在');
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      await checkGrant(tx, caller, form.roleIds);
      await checkDept(tx, caller, form.deptId);
      await checkJobs(tx, form.jobIds);
      const values = {
        username: form.username,
        nickName: form.nickName,
        phone: form.phone ?? null,
        email: form.email ?? null,
        gender: form.gender ?? null,
        deptId: form.deptId ?? null,
        channel: form.channel,
        uscc: form.uscc ?? null,
        enabled: form.enabled,
      };
      const [row] = await tx
        .insert(users)
        .values({ ...values, passwordHash, mustChangePassword: true, passwordOneTime: true })
        .returning({ id: users.id });
      await setLinks(tx, row!.id, form.roleIds, form.jobIds);
      await auditChange(tx, caller, {
        action: 'create',
        entity: 'user',
        entityId: row!.id,
        after: snapshot({ ...values, roleIds: form.roleIds, jobIds: form.jobIds }),
      });
      return { id: row!.id, username: form.username, password };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('用户名已存在');
    throw err;
  }
}

type UpdateInput = z.infer<typeof userUpdateForm>;

/** Updates an account; a stale `version` answers 409. The masked phone as listed keeps the number. */
export async function updateUser(db: Db, caller: Caller, form: UpdateInput): Promise<UserRow> {
  try {
    return await db.transaction(async (tx) => {
      const before = await manageable(tx, caller, form.id);
      if (before.version !== form.version) throw conflict(STALE_VERSION);
      const { adminRoleId } = await checkGrant(tx, caller, form.roleIds);
      if (form.deptId !== before.deptId) await checkDept(tx, caller, form.deptId);
      await checkJobs(tx, form.jobIds);
      if (form.username.toLowerCase() !== before.username.toLowerCase()) {
        if (await usernameTaken(tx, form.username, form.id)) throw conflict('用户名已存在');
      }
      if (before.isAdmin && adminRoleId == null) await keepAnAdmin(tx, [form.id]);

      let phone = form.phone ?? null;
      if (phone && MASKED_MOBILE.test(phone)) {
        if (phone !== maskPhone(before.phone))
          throw fieldError('phone', '请输入正确的11位手机号码', '手机号');
        phone = before.phone;
      }
      const values = {
        username: form.username,
        nickName: form.nickName,
        phone,
        email: form.email ?? null,
        gender: form.gender ?? null,
        deptId: form.deptId ?? null,
        channel: form.channel,
        uscc: form.uscc ?? null,
      };
      await tx
        .update(users)
        .set({ ...values, version: sql`${users.version} + 1`, updatedAt: sql`now()` })
        .where(eq(users.id, form.id));
      await setLinks(tx, form.id, form.roleIds, form.jobIds);
      await auditChange(tx, caller, {
        action: 'update',
        entity: 'user',
        entityId: form.id,
        before: snapshot(before),
        after: snapshot({ ...values, enabled: before.enabled, roleIds: form.roleIds, jobIds: form.jobIds }),
      });
      return loadRow(tx, form.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('用户名已存在');
    throw err;
  }
}

/** Enables or disables an account (disabling revokes its sessions at once; see setUserEnabled). */
export async function enableUser(db: Db, caller: Caller, id: number, enabled: boolean): Promise<UserRow> {
  if (!enabled && id === caller.user.id) throw badRequest('不能停用当前登录的用户');
  await setUserEnabled(db, caller, id, enabled, {
    guard: async (tx) => {
      const target = await manageable(tx, caller, id);
      if (!enabled && target.isAdmin && target.enabled) await keepAnAdmin(tx, [id]);
    },
  });
  return loadRow(db, id);
}

/** A new one-time password (answered once), forced change at the next sign-in, every session revoked. */
export async function resetPassword(
  db: Db,
  caller: Caller,
  id: number,
): Promise<{ id: number; username: string; password: string }> {
  if (id === caller.user.id) throw badRequest('请在个人中心修改自己的密码');
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const target = await manageable(tx, caller, id);
    await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword: true,
        passwordOneTime: true,
        oneTimeUsedAt: null,
        failedLogins: 0,
        lockedUntil: null,
        passwordChangedAt: sql`now()`,
        updatedAt: sql`now()`,
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.id, id));
    const revoked = await revokeUserSessions(tx, id, 'password_reset');
    await auditChange(tx, caller, {
      action: 'password_reset',
      entity: 'user',
      entityId: id,
      before: { mustChangePassword: false },
      after: { mustChangePassword: true, revokedSessions: revoked },
    });
    return { id, username: target.username, password };
  });
}

/** Deletes accounts: never the caller's own, never the last enabled administrator. */
export async function deleteUsers(db: Db, caller: Caller, ids: number[]): Promise<{ deleted: number }> {
  // Ascending, so concurrent deletes lock rows in the same order.
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.includes(caller.user.id)) throw badRequest('不能删除当前登录的用户');
  return db.transaction(async (tx) => {
    const targets: Target[] = [];
    for (const id of unique) targets.push(await manageable(tx, caller, id));
    if (targets.some((t) => t.isAdmin && t.enabled)) await keepAnAdmin(tx, unique);
    await tx.delete(users).where(inArray(users.id, unique));
    for (const t of targets) {
      await auditChange(tx, caller, {
        action: 'delete',
        entity: 'user',
        entityId: t.id,
        before: snapshot(t),
      });
    }
    return { deleted: targets.length };
  });
}

import { type Channel, type InitForm, ROLE_CODES } from '@piibs/shared';
import { SITE_TITLE } from '@piibs/shared/constants';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { departments, roles, systemSettings, userRoles, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { conflict } from '../../lib/errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { seedMenus } from '../menus/seed.ts';

export const INITIALIZED_KEY = 'initialized';
export const ORGANISATION_KEY = 'organisation';
export const ALREADY_INITIALIZED = '系统已完成初始化';

/**
 * The issuing insurer: the organisation set up at first run, printed on e-documents and named in co-insurance
 * tables (its row is ISSUER_CODE).
 */
export async function insurerName(db: Db | Tx): Promise<string> {
  const [row] = await db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, ORGANISATION_KEY));
  const name = (row?.value as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : SITE_TITLE;
}

/** The built-in roles; `code` is what the front end's permission checks name. */
export const BUILTIN_ROLES = [
  { code: ROLE_CODES.admin, name: '系统管理员', level: 1, dataScope: 'all', description: '全部菜单与权限' },
  {
    code: ROLE_CODES.underwriter,
    name: '核保员',
    level: 2,
    dataScope: 'all',
    description: '审核客户、投保单与二次下单',
  },
  {
    code: ROLE_CODES.agent,
    name: '代理人',
    level: 3,
    dataScope: 'self',
    description: '为客户录入投保，只见本人客户',
  },
  {
    code: ROLE_CODES.enterprise,
    name: '投保企业',
    level: 3,
    dataScope: 'self',
    description: '企业自助投保（精简界面）',
  },
  {
    code: ROLE_CODES.service,
    name: '风控服务机构',
    level: 3,
    dataScope: 'self',
    description: '事故预防服务',
  },
  { code: ROLE_CODES.contractor, name: '施工企业', level: 3, dataScope: 'self', description: '工程项目投保' },
] as const;

/** True once the first administrator exists (the marker row is written in the same transaction). */
export async function isInitialized(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ key: systemSettings.key })
    .from(systemSettings)
    .where(eq(systemSettings.key, INITIALIZED_KEY))
    .limit(1);
  return Boolean(row);
}

export interface NewUser {
  username: string;
  nickName: string;
  password: string;
  channel: Channel;
  roles: string[];
  uscc?: string;
  phone?: string;
  email?: string;
}

async function insertUser(
  tx: Tx,
  u: NewUser,
  deptId: number | null,
  roleIds: Map<string, number>,
): Promise<number> {
  const [row] = await tx
    .insert(users)
    .values({
      username: u.username,
      nickName: u.nickName,
      passwordHash: await hashPassword(u.password),
      channel: u.channel,
      uscc: u.uscc ?? null,
      phone: u.phone ?? null,
      email: u.email ?? null,
      deptId,
    })
    .returning({ id: users.id });
  const ids = u.roles.map((code) => roleIds.get(code)).filter((id): id is number => id != null);
  if (ids.length) await tx.insert(userRoles).values(ids.map((roleId) => ({ userId: row!.id, roleId })));
  return row!.id;
}

/**
 * First-run setup in one transaction: the initialisation marker (its primary key makes a concurrent second
 * setup wait, then fail with 409), the organisation, the built-in roles, a root department and the first
 * administrator (plus `extraUsers`, for demo data).
 */
export async function initialise(
  db: Db,
  input: InitForm,
  opts: { extraUsers?: NewUser[]; ip?: string | null } = {},
): Promise<{ adminId: number }> {
  // Fail fast without hashing when already initialised; the marker insert below is the real guard.
  if (await isInitialized(db)) throw conflict(ALREADY_INITIALIZED);
  return db.transaction(async (tx) => {
    const marker = await tx
      .insert(systemSettings)
      .values({ key: INITIALIZED_KEY, value: { at: new Date().toISOString(), admin: input.username } })
      .onConflictDoNothing()
      .returning({ key: systemSettings.key });
    if (marker.length === 0) throw conflict(ALREADY_INITIALIZED);

    await tx
      .insert(systemSettings)
      .values({ key: ORGANISATION_KEY, value: { name: input.organisationName } })
      .onConflictDoUpdate({
        target: systemSettings.key,
        set: { value: { name: input.organisationName }, updatedAt: sql`now()` },
      });

    await tx
      .insert(roles)
      .values(BUILTIN_ROLES.map((r) => ({ ...r })))
      .onConflictDoNothing({ target: roles.code });
    const roleRows = await tx
      .select({ id: roles.id, code: roles.code })
      .from(roles)
      .where(
        inArray(
          roles.code,
          BUILTIN_ROLES.map((r) => r.code),
        ),
      );
    const roleIds = new Map(roleRows.map((r) => [r.code, r.id]));
    await seedMenus(tx);

    const [dept] = await tx
      .insert(departments)
      .values({ name: input.organisationName })
      .returning({ id: departments.id });
    const adminId = await insertUser(
      tx,
      {
        username: input.username,
        nickName: input.nickName || '系统管理员',
        password: input.password,
        channel: 'staff',
        roles: [ROLE_CODES.admin],
      },
      dept!.id,
      roleIds,
    );
    for (const u of opts.extraUsers ?? []) {
      await insertUser(tx, u, u.channel === 'staff' ? dept!.id : null, roleIds);
    }
    await writeAudit(tx, {
      actorId: adminId,
      actorName: input.username,
      action: 'init',
      entity: 'system',
      detail: {
        organisationName: input.organisationName,
        admin: input.username,
        users: (opts.extraUsers ?? []).map((u) => u.username),
      },
      ip: opts.ip ?? null,
    });
    return { adminId };
  });
}

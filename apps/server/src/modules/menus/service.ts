import { ROLE_CODES } from '@piibs/shared';
import { LAYOUT_COMPONENT, type MenuRoute } from '@piibs/shared/menu';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { menus, roleMenus, roles, systemSettings, users } from '../../db/schema.ts';

export type MenuRow = typeof menus.$inferSelect;

export const MENU_TYPE = { directory: 0, menu: 1, button: 2 } as const;

const VERSION_KEY = 'menuVersion';

/** Bumps the menu version: every user's cached route tree is rebuilt on their next menu load. */
export async function bumpMenuVersion(db: Pick<Db, 'insert'>): Promise<void> {
  await db
    .insert(systemSettings)
    .values({ key: VERSION_KEY, value: 1 })
    .onConflictDoUpdate({
      target: systemSettings.key,
      set: {
        value: sql`to_jsonb(coalesce((${systemSettings.value})::text::bigint, 0) + 1)`,
        updatedAt: sql`now()`,
      },
    });
}

/** The menu version as a column expression (0 before the first bump). */
export const menuVersionValue = () =>
  sql<number>`coalesce((select (s.value)::text::bigint from system_setting s
    where s.key = ${sql.raw(`'${VERSION_KEY}'`)}), 0)`.mapWith(Number);

const prepareVersionRead = (db: Db) =>
  db.select({ version: menuVersionValue() }).from(sql`(select) as one`).prepare('piibs_menu_version');
/** Read at every menu load: prepared once per database, planned once per connection. */
const versionReads = new WeakMap<Db, ReturnType<typeof prepareVersionRead>>();

async function menuVersion(db: Db): Promise<number> {
  let read = versionReads.get(db);
  if (!read) {
    read = prepareVersionRead(db);
    versionReads.set(db, read);
  }
  const [row] = await read.execute();
  return row?.version ?? 0;
}

/** Menus granted to any of the role codes; the admin role sees every menu. */
export async function menusForRoles(db: Db, roleCodes: string[]): Promise<MenuRow[]> {
  if (roleCodes.includes('admin')) return db.select().from(menus).orderBy(asc(menus.sort), asc(menus.id));
  if (roleCodes.length === 0) return [];
  return db
    .selectDistinct({ menu: menus })
    .from(menus)
    .innerJoin(roleMenus, eq(roleMenus.menuId, menus.id))
    .innerJoin(roles, eq(roles.id, roleMenus.roleId))
    .where(inArray(roles.code, roleCodes))
    .orderBy(asc(menus.sort), asc(menus.id))
    .then((rows) => rows.map((r) => r.menu));
}

function toRoute(m: MenuRow, children: MenuRoute[] | undefined, topLevel: boolean): MenuRoute {
  const meta = {
    title: m.title,
    icon: m.icon ?? null,
    noCache: !m.cache,
    ...(m.affix ? { affix: true } : {}),
  };
  if (m.type === MENU_TYPE.directory) {
    const visibleChildren = (children ?? []).some((c) => !c.hidden);
    return {
      path: m.path ?? '',
      component: topLevel ? LAYOUT_COMPONENT : (m.component ?? 'ParentView'),
      name: m.name ?? undefined,
      // A directory with nothing to show stays routable but out of the sidebar.
      hidden: m.hidden || !visibleChildren,
      redirect: 'noredirect',
      alwaysShow: true,
      meta,
      children: children ?? [],
    };
  }
  return {
    path: m.path ?? '',
    component: m.component ?? '',
    name: m.name ?? undefined,
    hidden: m.hidden,
    meta,
  };
}

/** Turns flat menu rows into the spec's route tree (buttons are permissions, not routes). */
export function buildRouteTree(rows: MenuRow[]): MenuRoute[] {
  const routable = rows.filter((m) => m.type !== MENU_TYPE.button);
  const ids = new Set(routable.map((m) => m.id));
  const byParent = new Map<number | null, MenuRow[]>();
  for (const m of routable) {
    const parent = m.parentId != null && ids.has(m.parentId) ? m.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), m]);
  }
  const walk = (parent: number | null): MenuRoute[] =>
    (byParent.get(parent) ?? []).map((m) =>
      toRoute(m, m.type === MENU_TYPE.directory ? walk(m.id) : undefined, parent === null),
    );
  return walk(null);
}

/** 企业信息: the enterprise account's own record; in the sidebar only for accounts that act for an enterprise. */
export const OWN_ENTERPRISE_PATH = 'newUpdate/mine/false';

/** True when the user is an enterprise account with its enterprise's credit code (企业信息 has a record). */
export async function actsForEnterprise(
  db: Db,
  user: { id: number; roles: readonly string[] },
): Promise<boolean> {
  if (!user.roles.includes(ROLE_CODES.enterprise)) return false;
  const [me] = await db.select({ uscc: users.uscc }).from(users).where(eq(users.id, user.id));
  return Boolean(me?.uscc);
}

/**
 * Route trees cached per role set and menu version: the version row is one indexed read, and any change to
 * menus or grants bumps it, so a cached tree is never stale (and several API instances agree).
 */
export class MenuCache {
  private readonly entries = new Map<string, { version: number; tree: MenuRoute[]; json: Buffer }>();

  /**
   * `ownEnterprise`: the account acts for an enterprise (has its credit code), so 企业信息 has a record to show.
   * `version`: the menu version a request read with its session (RequestUser.menuVersion), else read here.
   */
  private async entry(db: Db, roleCodes: string[], ownEnterprise: boolean, known?: number) {
    const key = `${[...roleCodes].sort().join(',')}${ownEnterprise ? '+enterprise' : ''}`;
    const version = known ?? (await menuVersion(db));
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit;
    const rows = (await menusForRoles(db, roleCodes)).map((m) =>
      m.path === OWN_ENTERPRISE_PATH && !ownEnterprise ? { ...m, hidden: true } : m,
    );
    const tree = buildRouteTree(rows);
    const made = { version, tree, json: Buffer.from(JSON.stringify(tree)) };
    if (this.entries.size > 1000) this.entries.clear();
    this.entries.set(key, made);
    return made;
  }

  async build(db: Db, roleCodes: string[], ownEnterprise = false): Promise<MenuRoute[]> {
    return (await this.entry(db, roleCodes, ownEnterprise)).tree;
  }

  /** The tree as the JSON body of GET /api/menus/build, serialised once per role set and version. */
  async json(db: Db, roleCodes: string[], ownEnterprise = false, version?: number): Promise<Buffer> {
    return (await this.entry(db, roleCodes, ownEnterprise, version)).json;
  }
}

import { MENU_ICON_NAMES, type MenuRoute, menuRouteSchema } from '@piibs/shared/menu';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { menus } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { badRequest, fieldError, notFound } from '../../lib/errors.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { actsForEnterprise, bumpMenuVersion, MENU_TYPE, MenuCache, type MenuRow } from './service.ts';

const menuFields = z.object({
  type: z.union([z.literal(0), z.literal(1), z.literal(2)]).meta({ title: '菜单类型' }),
  title: z.string().trim().min(1).max(50).meta({ title: '菜单标题' }),
  parentId: z.number().int().positive().nullable().default(null).meta({ title: '上级菜单' }),
  name: z.string().trim().max(50).nullish().meta({ title: '组件名称' }),
  icon: z.enum(MENU_ICON_NAMES).nullish().meta({ title: '图标' }),
  path: z.string().trim().max(200).nullish().meta({ title: '路由地址' }),
  component: z.string().trim().max(200).nullish().meta({ title: '组件路径' }),
  permission: z.string().trim().max(100).nullish().meta({ title: '权限标识' }),
  hidden: z.boolean().default(false).meta({ title: '是否隐藏' }),
  cache: z.boolean().default(false).meta({ title: '是否缓存' }),
  affix: z.boolean().default(false).meta({ title: '固定标签' }),
  sort: z.number().int().min(0).max(99999).default(999).meta({ title: '排序' }),
});
type MenuInput = z.infer<typeof menuFields>;

const menuOut = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  type: z.number(),
  title: z.string(),
  name: z.string().nullable(),
  icon: z.string().nullable(),
  path: z.string().nullable(),
  component: z.string().nullable(),
  permission: z.string().nullable(),
  hidden: z.boolean(),
  cache: z.boolean(),
  affix: z.boolean(),
  sort: z.number(),
  hasChildren: z.boolean(),
});

interface TreeNode {
  id: number;
  label: string;
  children?: TreeNode[];
}
const treeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ id: z.number(), label: z.string(), children: z.array(treeNode).optional() }),
);

/** What a menu of each type must carry; messages name the field. */
function checkShape(m: MenuInput) {
  if (m.type !== MENU_TYPE.button && !m.path)
    throw fieldError('path', '目录和菜单必须填写路由地址', '路由地址');
  if (m.type === MENU_TYPE.menu && !m.component)
    throw fieldError('component', '菜单必须填写组件路径', '组件路径');
  if (m.type === MENU_TYPE.button && !m.permission)
    throw fieldError('permission', '按钮必须填写权限标识', '权限标识');
  if (m.parentId == null && m.type === MENU_TYPE.directory && !m.path?.startsWith('/')) {
    throw fieldError('path', '顶级目录的路由地址必须以 / 开头', '路由地址');
  }
}

export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new MenuCache();
  const db = () => app.deps.database.db;

  app.get(
    '/menus/build',
    {
      schema: {
        tags: ['menus'],
        summary: '当前用户的路由菜单树',
        response: { 200: z.array(menuRouteSchema) },
      },
    },
    async (req, reply) => {
      // Every page load asks, and the tree only changes with menus or grants: it is serialised once per role set
      // and version, and a Buffer goes out as it is (no per-request serializer).
      const own = await actsForEnterprise(db(), req.user);
      const body = await cache.json(db(), req.user.roles, own, req.user.menuVersion);
      return reply.type('application/json; charset=utf-8').send(body as unknown as MenuRoute[]);
    },
  );

  app.get(
    '/menus/tree',
    {
      preHandler: requirePermission(app, 'menu:list'),
      schema: {
        tags: ['menus'],
        summary: '菜单树（用于角色授权）',
        response: { 200: z.array(treeNode), ...adminErrors },
      },
    },
    async () => {
      const rows = await db().select().from(menus).orderBy(menus.sort, menus.id);
      const build = (parent: number | null): TreeNode[] =>
        rows
          .filter((m) => m.parentId === parent)
          .map((m) => {
            const children = build(m.id);
            return children.length ? { id: m.id, label: m.title, children } : { id: m.id, label: m.title };
          });
      return build(null);
    },
  );

  app.get(
    '/menus',
    {
      preHandler: requirePermission(app, 'menu:list'),
      schema: {
        tags: ['menus'],
        summary: '菜单列表（按上级菜单，或按标题搜索）',
        querystring: z.object({
          pid: z.coerce.number().int().positive().optional().meta({ title: '上级菜单' }),
          title: z.string().trim().max(50).optional().meta({ title: '菜单标题' }),
        }),
        response: { 200: z.object({ content: z.array(menuOut), totalElements: z.number() }), ...adminErrors },
      },
    },
    async (req) => {
      const { pid, title } = req.query;
      const where = title
        ? sql`${menus.title} ILIKE ${`%${title.replace(/[%_\\]/g, '\\$&')}%`}`
        : pid
          ? eq(menus.parentId, pid)
          : sql`${menus.parentId} IS NULL`;
      const rows = await db()
        .select({
          menu: menus,
          hasChildren: sql<boolean>`exists (select 1 from menu c where c.parent_id = "menu"."id")`,
        })
        .from(menus)
        .where(where)
        .orderBy(menus.sort, menus.id);
      const content = rows.map((r) => ({ ...pick(r.menu), hasChildren: r.hasChildren }));
      return { content, totalElements: content.length };
    },
  );

  app.post(
    '/menus',
    {
      preHandler: requirePermission(app, 'menu:add'),
      schema: {
        tags: ['menus'],
        summary: '新增菜单',
        body: menuFields,
        response: { 200: menuOut, ...adminErrors },
      },
    },
    async (req) => {
      checkShape(req.body);
      return db().transaction(async (tx) => {
        if (req.body.parentId != null) await mustExist(tx, req.body.parentId, '上级菜单：不存在');
        const [row] = await tx.insert(menus).values(req.body).returning();
        await bumpMenuVersion(tx);
        await auditAction(tx, req, {
          action: 'create',
          entity: 'menu',
          entityId: row!.id,
          detail: { title: row!.title },
        });
        return { ...pick(row!), hasChildren: false };
      });
    },
  );

  app.post(
    '/menus/update',
    {
      preHandler: requirePermission(app, 'menu:edit'),
      schema: {
        tags: ['menus'],
        summary: '修改菜单',
        body: menuFields.extend({ id: z.number().int().positive().meta({ title: '菜单ID' }) }),
        response: { 200: menuOut, ...adminErrors },
      },
    },
    async (req) => {
      const { id, ...fields } = req.body;
      checkShape(fields);
      return db().transaction(async (tx) => {
        await mustExist(tx, id, '菜单不存在');
        if (fields.parentId != null) {
          if (fields.parentId === id) throw fieldError('parentId', '不能选择自己', '上级菜单');
          // Walking up from the new parent must not reach this menu (no cycles).
          const chain = await tx.execute(sql`
            WITH RECURSIVE up AS (SELECT id, parent_id FROM menu WHERE id = ${fields.parentId}
              UNION SELECT m.id, m.parent_id FROM menu m JOIN up ON m.id = up.parent_id)
            SELECT 1 FROM up WHERE id = ${id}`);
          if (chain.rows.length) throw fieldError('parentId', '不能选择自己的下级菜单', '上级菜单');
          await mustExist(tx, fields.parentId, '上级菜单：不存在');
        }
        const [row] = await tx
          .update(menus)
          .set({ ...fields, updatedAt: new Date() })
          .where(eq(menus.id, id))
          .returning();
        await bumpMenuVersion(tx);
        await auditAction(tx, req, {
          action: 'update',
          entity: 'menu',
          entityId: id,
          detail: { title: row!.title },
        });
        const [kids] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(menus)
          .where(eq(menus.parentId, id));
        return { ...pick(row!), hasChildren: (kids?.n ?? 0) > 0 };
      });
    },
  );

  app.post(
    '/menus/delete',
    {
      preHandler: requirePermission(app, 'menu:del'),
      schema: {
        tags: ['menus'],
        summary: '删除菜单（连同下级菜单）',
        body: z.array(z.number().int().positive()).min(1).max(500).meta({ title: '菜单ID' }),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => {
      return db().transaction(async (tx) => {
        const ids = req.body;
        const found = await tx.select({ id: menus.id }).from(menus).where(inArray(menus.id, ids));
        if (found.length !== new Set(ids).size) throw notFound('菜单不存在');
        const all = await tx.execute<{ id: number }>(sql`
          WITH RECURSIVE down AS (SELECT id FROM menu WHERE id IN (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})
            UNION SELECT m.id FROM menu m JOIN down ON m.parent_id = down.id)
          SELECT id FROM down`);
        const allIds = all.rows.map((r) => Number(r.id));
        await tx.delete(menus).where(inArray(menus.id, allIds));
        await bumpMenuVersion(tx);
        await auditAction(tx, req, {
          action: 'delete',
          entity: 'menu',
          entityId: ids.join(','),
          detail: { ids: allIds },
        });
        return { deleted: allIds.length };
      });
    },
  );
};

async function mustExist(tx: Tx, id: number, message: string) {
  const [row] = await tx.select({ id: menus.id }).from(menus).where(eq(menus.id, id));
  if (!row) throw message.startsWith('上级') ? badRequest(message) : notFound(message);
}

function pick(m: MenuRow) {
  const { createdAt: _c, updatedAt: _u, ...rest } = m;
  return rest;
}

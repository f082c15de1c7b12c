import type { MenuIconName } from '@piibs/shared/menu';
import type { ViewName } from '@piibs/shared/views';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { menus, roleMenus, roles } from '../../db/schema.ts';
import { appliedSeedKeys, recordSeedKeys } from '../../lib/seed-keys.ts';
import { bumpMenuVersion, MENU_TYPE, OWN_ENTERPRISE_PATH } from './service.ts';

/** Role codes (admin sees everything without grants). */
const ENTERPRISE = '17';
const UNDERWRITER = 'underwriter';
const AGENT = 'agent';
const SERVICE = 'service';
const CONTRACTOR = 'contractor';

interface SeedMenu {
  title: string;
  path?: string;
  /** The page's view name (the web app's view table maps each to a page). */
  view?: ViewName;
  permission?: string;
  hidden?: boolean;
  cache?: boolean;
  icon?: MenuIconName;
  roles: string[];
  children?: SeedMenu[];
}

const page = (
  title: string,
  path: string,
  view: ViewName,
  roles: string[],
  extra: Partial<SeedMenu> = {},
): SeedMenu => ({
  title,
  path,
  view,
  roles,
  hidden: true,
  ...extra,
});
const button = (title: string, permission: string, roles: string[] = []): SeedMenu => ({
  title,
  permission,
  roles,
});

const APPLY = [ENTERPRISE, AGENT, UNDERWRITER];

const BUTTON_TITLES = { list: '查询', add: '新增', edit: '修改', del: '删除' } as const;
type ButtonKind = keyof typeof BUTTON_TITLES;

/** A visible, cached page of 系统管理 with its permission buttons (`<code>:list|add|edit|del`); admin only. */
const systemPage = (
  title: string,
  path: string,
  view: ViewName,
  icon: MenuIconName,
  code: string,
  noun: string,
  kinds: ButtonKind[] = ['list', 'add', 'edit', 'del'],
): SeedMenu => ({
  title,
  path,
  view,
  icon,
  roles: [],
  hidden: false,
  cache: true,
  children: kinds.map((k) => button(`${noun}${BUTTON_TITLES[k]}`, `${code}:${k}`)),
});

/** Every route of spec §2 under the layout, grouped as the sidebar shows them, with the roles that use each. */
export const SEED_MENUS: SeedMenu[] = [
  {
    title: '投保管理',
    path: '/piibs/insured',
    icon: 'form',
    roles: APPLY,
    children: [
      page('在线投保', 'stepOne/0/1', 'insured/StepOne', [ENTERPRISE], { hidden: false, icon: 'form' }),
      page('填写投保信息', 'stepOne/:id/:policyholderType', 'insured/StepOne', APPLY),
      page('保单基本信息', 'stepSecond/:id/:policyholderType', 'insured/StepSecond', APPLY),
      page('共保信息', 'stepThird/:id/:policyholderType', 'insured/StepThird', APPLY),
      page('确认保费信息', 'stepForth/:id/:policyholderType', 'insured/StepForth', APPLY),
      page('提交审核', 'stepSuccess/:id/:policyholderType', 'insured/StepSuccess', APPLY),
      page('查看投保单', 'viewInsurance/:id/:policyholderType', 'insured/ViewInsurance', [
        ...APPLY,
        CONTRACTOR,
      ]),
      page('支付', 'viewInsuranceCA/:id', 'insured/ViewInsuranceCA', [ENTERPRISE, AGENT]),
      page('影像资料', 'ImageData/:id/:businessCode', 'insured/ImageData', APPLY),
      page('支付结果', 'paymentWebResult/:payId/:payResult', 'insured/PaymentWebResult', [ENTERPRISE, AGENT]),
    ],
  },
  {
    // The applications list of every channel lives here (投保单列表), with the project-insurance wizard.
    title: '投保单管理',
    path: '/piibs/epinsure',
    icon: 'project',
    roles: [ENTERPRISE, CONTRACTOR, AGENT, UNDERWRITER],
    children: [
      page('投保单列表', 'insureList', 'epinsure/InsureList', [ENTERPRISE, CONTRACTOR, AGENT, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'list',
        // Applications of every channel: enterprises, agents and contractors keep their own; staff read them.
        children: [
          button('投保单查询', 'application:list', [ENTERPRISE, AGENT, CONTRACTOR, UNDERWRITER]),
          button('投保单新增', 'application:add', [ENTERPRISE, AGENT, CONTRACTOR]),
          button('投保单修改', 'application:edit', [ENTERPRISE, AGENT, CONTRACTOR]),
        ],
      }),
      page('填写投保信息', 'stepOne/:id/:policyholderType', 'epinsure/StepOne', [CONTRACTOR, AGENT]),
      page('项目信息', 'stepSecond/:id/:policyholderType', 'epinsure/StepSecond', [CONTRACTOR, AGENT]),
      page('提交审核', 'stepThird/:id/:policyholderType', 'epinsure/StepThird', [CONTRACTOR, AGENT]),
      page('共保/联保信息', 'coinsureAndJoint/:id/:policyholderType', 'epinsure/CoinsureAndJoint', [
        CONTRACTOR,
        AGENT,
      ]),
      page('提交成功', 'stepSuccess/:id/:policyholderType', 'epinsure/StepSuccess', [CONTRACTOR, AGENT]),
    ],
  },
  {
    title: '代理出单',
    path: '/piibs/agent',
    icon: 'peoples',
    roles: [AGENT],
    children: [
      page('代客投保', 'stepOne/0/1', 'agent/StepOne', [AGENT], { hidden: false, icon: 'form' }),
      page('新增客户', 'applicant/newUpdate/0/add', 'agent/ApplicantEdit', [AGENT], {
        hidden: false,
        icon: 'user',
      }),
      page('填写投保信息', 'stepOne/:id/:policyholderType', 'agent/StepOne', [AGENT]),
      page('保单基本信息', 'stepSecond/:id/:policyholderType', 'agent/StepSecond', [AGENT]),
      page('提交审核', 'stepSuccess/:id/:policyholderType', 'agent/StepSuccess', [AGENT]),
      page('查看投保单', 'viewInsurance/:id/:policyholderType', 'agent/ViewInsurance', [AGENT]),
      page('客户信息', 'applicant/newUpdate/:id/:detail', 'agent/ApplicantEdit', [AGENT]),
    ],
  },
  {
    title: '客户管理',
    path: '/piibs/applicant',
    icon: 'user',
    roles: [ENTERPRISE, UNDERWRITER, AGENT],
    children: [
      page('客户列表', 'list', 'applicant/CustomerList', [UNDERWRITER, AGENT], {
        hidden: false,
        cache: true,
        icon: 'peoples',
        children: [
          button('客户查询', 'customer:list', [UNDERWRITER, AGENT, ENTERPRISE]),
          button('客户新增', 'customer:add', [UNDERWRITER, AGENT, ENTERPRISE]),
          button('客户修改', 'customer:edit', [UNDERWRITER, AGENT, ENTERPRISE]),
          button('查看完整联系电话', 'customer:unmask', [UNDERWRITER]),
        ],
      }),
      // The enterprise's own record: the page resolves 'mine' to it (GET /api/customers/mine).
      page('企业信息', OWN_ENTERPRISE_PATH, 'applicant/ApplicantEdit', [ENTERPRISE], {
        hidden: false,
        icon: 'user',
      }),
      page('客户信息', 'newUpdate/:id/:detail', 'applicant/ApplicantEdit', [ENTERPRISE, UNDERWRITER]),
    ],
  },
  {
    title: '审核任务',
    path: '/piibs/task',
    icon: 'audit',
    roles: [UNDERWRITER],
    children: [
      page('审核任务', 'list', 'task/TaskList', [UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'audit',
        children: [
          button('审核客户信息', 'customer:review', [UNDERWRITER]),
          button('审核投保单', 'application:review', [UNDERWRITER]),
          button('审核二次下单', 'tender:review', [UNDERWRITER]),
          // A lead's permission: admin holds it; an administrator grants it to a lead's role.
          button('指派审核任务', 'task:assign'),
        ],
      }),
      page('审核客户信息', 'audit/:id/:audit', 'task/CustomerAudit', [UNDERWRITER]),
      page('审核二次下单信息', 'tenderAudit/:id/:audit', 'task/TenderAudit', [UNDERWRITER]),
      // Endorsements (批改) and cancellations (退保) of issued policies: the queue, then one request.
      page('批改审核', 'policyChanges', 'task/PolicyChangeReviews', [UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'policy',
      }),
      page('审核批改/退保申请', 'policyChange/:id', 'task/PolicyChangeAudit', [UNDERWRITER]),
    ],
  },
  {
    title: '项目管理',
    path: '/piibs/projectManage',
    icon: 'project',
    // Enterprises open their policies here (policyInsuranceView), from payment results and lists.
    roles: [CONTRACTOR, AGENT, UNDERWRITER, ENTERPRISE],
    children: [
      // The annual orders and declared projects (orderDetail/0 lists them; orderDetail/:id is one order).
      page('年度订单', 'orderDetail/0', 'projectManage/OrderDetail', [CONTRACTOR, AGENT, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'list',
        children: [
          button('年度订单查询', 'project_order:list', [CONTRACTOR, AGENT, UNDERWRITER]),
          button('年度订单新增', 'project_order:add', [UNDERWRITER]),
          button('年度订单修改', 'project_order:edit', [UNDERWRITER]),
          button('二次下单申报', 'project_order:apply', [CONTRACTOR, AGENT]),
        ],
      }),
      page('二次下单申请', 'apply/:id/:detail/:type/:status', 'projectManage/Apply', [
        CONTRACTOR,
        AGENT,
        UNDERWRITER,
      ]),
      page('年度订单详情', 'orderDetail/:id', 'projectManage/OrderDetail', [CONTRACTOR, AGENT, UNDERWRITER]),
      page('保单详情', 'policyInsuranceView/:id', 'projectManage/PolicyInsuranceView', [
        CONTRACTOR,
        AGENT,
        UNDERWRITER,
        ENTERPRISE,
      ]),
    ],
  },
  {
    title: '保单管理',
    path: '/piibs/policy',
    icon: 'policy',
    // Every role reaches its policies in two clicks: the list here, then the policy's number.
    roles: [AGENT, UNDERWRITER, ENTERPRISE, CONTRACTOR],
    children: [
      page('保单查询', 'policyList', 'policy/PolicyList', [UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'list',
      }),
      page('我的保单', 'myPolicies', 'policy/MyPolicies', [ENTERPRISE, AGENT, CONTRACTOR], {
        hidden: false,
        cache: true,
        icon: 'policy',
      }),
      page('补录资料', 'marge/xxt', 'policy/MargeXxt', [AGENT, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'upload',
        // Sales supplements (/api/sales, /api/policies/:id/sales): read, save and change the salesperson.
        children: [
          button('补录查询', 'sales:list', [AGENT, UNDERWRITER]),
          button('补录编辑', 'sales:edit', [AGENT, UNDERWRITER]),
        ],
      }),
      page('农民工补录销售信息', 'marge/NBNMG', 'policy/MargeNbnmg', [AGENT, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'peoples',
      }),
      page('修改销售信息', 'marge/updateSale', 'policy/UpdateSale', [AGENT, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'money',
      }),
      page('补录资料详情', 'marge/:id/:detail', 'policy/Marge', [AGENT, UNDERWRITER]),
    ],
  },
  {
    title: '风险管控',
    path: '/piibs/riskControl',
    icon: 'shield',
    roles: [SERVICE, ENTERPRISE, UNDERWRITER],
    children: [
      page(
        '我的服务单',
        'prevention/serviceList',
        'riskControl/ServiceList',
        [SERVICE, ENTERPRISE, UNDERWRITER],
        {
          hidden: false,
          cache: true,
          icon: 'list',
          children: [
            button('服务单查询', 'prevention:list', [SERVICE, ENTERPRISE, UNDERWRITER]),
            button('制定服务计划', 'prevention:plan', [UNDERWRITER]),
            button('执行服务', 'prevention:serve', [SERVICE]),
            button('确认服务', 'prevention:confirm', [ENTERPRISE]),
            button('导出服务档案', 'prevention:export', [SERVICE, ENTERPRISE, UNDERWRITER]),
          ],
        },
      ),
      page('服务机构', 'prevention/expert', 'riskControl/Expert', [SERVICE, UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'service',
        children: [
          button('服务机构查询', 'service_org:list', [SERVICE, UNDERWRITER]),
          button('服务机构新增', 'service_org:add', [UNDERWRITER]),
          button('服务机构修改', 'service_org:edit', [SERVICE, UNDERWRITER]),
          button('服务机构删除', 'service_org:del', [UNDERWRITER]),
          button('服务人员查询', 'service_person:list', [SERVICE, UNDERWRITER]),
          button('服务人员新增', 'service_person:add', [SERVICE, UNDERWRITER]),
          button('服务人员修改', 'service_person:edit', [SERVICE, UNDERWRITER]),
          button('服务人员删除', 'service_person:del', [SERVICE, UNDERWRITER]),
        ],
      }),
      page('事故预防', 'prevention/index/:seqNo', 'riskControl/Prevention', [
        SERVICE,
        ENTERPRISE,
        UNDERWRITER,
      ]),
      page('服务人员信息', 'servicePerson/newUpdate/:id/:detail', 'riskControl/ServicePersonEdit', [
        SERVICE,
        UNDERWRITER,
      ]),
      page('服务机构信息', 'serviceOrg/newUpdate/:id/:detail', 'riskControl/ServiceOrgEdit', [
        SERVICE,
        UNDERWRITER,
      ]),
      page('服务记录', 'prevention/service/:seqNo', 'riskControl/ServiceRecord', [SERVICE]),
      page('服务完成', 'prevention/success/:seqNo', 'riskControl/ServiceSuccess', [SERVICE, ENTERPRISE]),
      page('服务详情', 'prevention/view/:seqNo', 'riskControl/ServiceView', [
        SERVICE,
        ENTERPRISE,
        UNDERWRITER,
      ]),
    ],
  },
  {
    title: '产品管理',
    path: '/piibs/product',
    icon: 'product',
    roles: [UNDERWRITER],
    children: [
      page('险种与责任', 'risk', 'product/Risk', [UNDERWRITER], {
        hidden: false,
        cache: true,
        icon: 'product',
        // Underwriters read products and rate tables; administrators (every permission) maintain them.
        children: [
          button('险种查询', 'product:list', [UNDERWRITER]),
          button('险种新增', 'product:add'),
          button('险种修改', 'product:edit'),
          button('险种删除', 'product:del'),
        ],
      }),
    ],
  },
  {
    title: '系统管理',
    path: '/piibs/system',
    icon: 'system',
    roles: [],
    children: [
      systemPage('用户管理', 'user', 'system/Users', 'user', 'user', '用户'),
      systemPage('角色管理', 'role', 'system/Roles', 'shield', 'role', '角色'),
      systemPage('菜单管理', 'menu', 'system/Menus', 'menu', 'menu', '菜单'),
      systemPage('部门管理', 'dept', 'system/Depts', 'tree', 'dept', '部门'),
      systemPage('岗位管理', 'job', 'system/Jobs', 'education', 'job', '岗位'),
      systemPage('字典管理', 'dict', 'system/Dicts', 'dict', 'dict', '字典'),
      systemPage('操作日志', 'log', 'system/Logs', 'log', 'log', '操作日志', ['list']),
      systemPage('登录日志', 'loginLog', 'system/LoginLogs', 'audit', 'log', '登录日志', ['list']),
      {
        ...systemPage('在线用户', 'online', 'system/Online', 'peoples', 'online', '在线用户', ['list']),
        children: [button('在线用户查询', 'online:list'), button('强制下线', 'online:kick')],
      },
      systemPage('服务监控', 'monitor', 'system/Monitor', 'monitor', 'monitor', '服务监控', ['list']),
    ],
  },
];

/** Inserts the seed menus and their grants once (on first-run setup); later changes are the administrator's. */
/** A seed node's row values (a page with a view stays a menu even when it carries buttons as children). */
function rowOf(m: SeedMenu, parentId: number | null, sort: number) {
  const type = m.permission
    ? MENU_TYPE.button
    : m.view
      ? MENU_TYPE.menu
      : m.children
        ? MENU_TYPE.directory
        : MENU_TYPE.menu;
  return {
    parentId,
    type,
    title: m.title,
    icon: m.icon ?? null,
    path: m.path ?? null,
    component: m.view ?? null,
    permission: m.permission ?? null,
    hidden: m.hidden ?? false,
    cache: m.cache ?? false,
    sort,
  };
}

/** A node's seed key: its path (or button code) under its parent's key. */
const nodeKey = (m: SeedMenu, parentKey: string) =>
  `${parentKey}/${m.permission ? `btn:${m.permission}` : (m.path ?? m.title)}`;

/** Every node and grant key of the seed. */
function seedKeys(): string[] {
  const out: string[] = [];
  const walk = (m: SeedMenu, parentKey: string) => {
    const key = nodeKey(m, parentKey);
    out.push(key, ...m.roles.map((r) => `${key}@${r}`));
    for (const c of m.children ?? []) walk(c, key);
  };
  for (const m of SEED_MENUS) walk(m, '');
  return out;
}

async function roleIds(tx: Tx): Promise<Map<string, number>> {
  const rows = await tx.select({ id: roles.id, code: roles.code }).from(roles);
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** First run: every menu of spec §2 with its buttons and the roles' grants. */
export async function seedMenus(tx: Tx): Promise<void> {
  const [existing] = await tx.select({ n: sql<number>`count(*)::int` }).from(menus);
  if ((existing?.n ?? 0) > 0) return;
  const roleId = await roleIds(tx);
  const grants: { roleId: number; menuId: number }[] = [];
  let sort = 0;
  const insert = async (m: SeedMenu, parentId: number | null) => {
    sort += 10;
    const [row] = await tx
      .insert(menus)
      .values(rowOf(m, parentId, sort))
      .returning({ id: menus.id });
    for (const code of m.roles) {
      const id = roleId.get(code);
      if (id) grants.push({ roleId: id, menuId: row!.id });
    }
    for (const child of m.children ?? []) await insert(child, row!.id);
  };
  for (const m of SEED_MENUS) await insert(m, null);
  if (grants.length) await tx.insert(roleMenus).values(grants).onConflictDoNothing();
  await recordSeedKeys(tx, 'menus', seedKeys());
  await bumpMenuVersion(tx);
}

/**
 * On every start of an installed system: adds the menus, buttons and grants this release's seed introduces
 * and the database has not had yet (a database set up by an older release). What the seed gave before and an
 * administrator since removed stays removed. Answers how many menus and grants were added.
 */
export async function syncSeedMenus(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72177003)`);
    const [existing] = await tx.select({ n: sql<number>`count(*)::int` }).from(menus);
    if ((existing?.n ?? 0) === 0) return 0; // not set up yet: the first-run setup seeds everything
    const applied = (await appliedSeedKeys(tx, 'menus')) ?? new Set<string>();
    const roleId = await roleIds(tx);
    const rows = await tx
      .select({
        id: menus.id,
        parentId: menus.parentId,
        path: menus.path,
        permission: menus.permission,
        sort: menus.sort,
      })
      .from(menus);
    const granted = new Set(
      (await tx.select({ roleId: roleMenus.roleId, menuId: roleMenus.menuId }).from(roleMenus)).map(
        (g) => `${g.menuId}@${g.roleId}`,
      ),
    );
    let added = 0;
    const visit = async (m: SeedMenu, parentId: number | null, parentKey: string): Promise<void> => {
      const key = nodeKey(m, parentKey);
      let row = rows.find(
        (r) =>
          r.parentId === parentId &&
          (m.permission ? r.permission === m.permission : r.path === (m.path ?? null) && !r.permission),
      );
      if (!row) {
        if (applied.has(key)) return; // removed by an administrator
        const siblings = rows.filter((r) => r.parentId === parentId).map((r) => r.sort);
        const values = rowOf(m, parentId, (siblings.length ? Math.max(...siblings) : 0) + 10);
        const [inserted] = await tx.insert(menus).values(values).returning({ id: menus.id });
        row = {
          id: inserted!.id,
          parentId,
          path: values.path,
          permission: values.permission,
          sort: values.sort,
        };
        rows.push(row);
        added++;
      }
      for (const code of m.roles) {
        const id = roleId.get(code);
        const grantKey = `${key}@${code}`;
        if (!id || applied.has(grantKey) || granted.has(`${row.id}@${id}`)) continue;
        await tx.insert(roleMenus).values({ roleId: id, menuId: row.id }).onConflictDoNothing();
        added++;
      }
      for (const child of m.children ?? []) await visit(child, row.id, key);
    };
    for (const m of SEED_MENUS) await visit(m, null, '');
    await recordSeedKeys(tx, 'menus', seedKeys());
    if (added) await bumpMenuVersion(tx);
    return added;
  });
}

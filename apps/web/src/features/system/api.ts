// System administration calls: the resources of the CRUD kit, and the lookups the forms need.
import type {
  AuditLogRow,
  DeptNode,
  DictDetailRow,
  DictRow,
  JobRow,
  LoginLogRow,
  MonitorResult,
  OneTimePasswordResult,
  OnlineRow,
  Page,
  RoleBrief,
  RoleDetail,
  RoleRow,
  UserRow,
} from '@piibs/shared/admin';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, listKey, postInline, type RowId } from '@/components/crud/resource.ts';
import { request } from '@/lib/http.ts';

export const usersResource = defineResource<UserRow>({
  noun: '用户',
  key: ['system', 'users'],
  list: 'api/users',
  remove: 'api/users/delete',
  download: { url: 'api/users/download', name: '用户数据' },
  permission: 'user',
  rowId: (row) => row.id,
  rowLabel: (row) => row.nickName || row.username,
});

export const rolesResource = defineResource<RoleRow>({
  noun: '角色',
  key: ['system', 'roles'],
  list: 'api/roles',
  remove: 'api/roles/delete',
  download: { url: 'api/roles/download', name: '角色数据' },
  permission: 'role',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const deptsResource = defineResource<DeptNode>({
  noun: '部门',
  key: ['system', 'depts'],
  list: 'api/depts',
  remove: 'api/depts/delete',
  download: { url: 'api/depts/download', name: '部门数据' },
  permission: 'dept',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const jobsResource = defineResource<JobRow>({
  noun: '岗位',
  key: ['system', 'jobs'],
  list: 'api/jobs',
  remove: 'api/jobs/delete',
  download: { url: 'api/jobs/download', name: '岗位数据' },
  permission: 'job',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const dictsResource = defineResource<DictRow>({
  noun: '字典',
  key: ['system', 'dicts'],
  list: 'api/dict',
  remove: 'api/dict/delete',
  download: { url: 'api/dict/download', name: '字典数据' },
  permission: 'dict',
  rowId: (row) => row.id,
  rowLabel: (row) => row.description || row.name,
});

export const dictDetailsResource = defineResource<DictDetailRow>({
  noun: '字典项',
  key: ['system', 'dictDetails'],
  list: 'api/dictDetail',
  // Spec §7: one entry per call.
  remove: async (ids) => {
    for (const id of ids) await postInline(`api/dictDetail/delete/${id}`);
  },
  permission: 'dict',
  rowId: (row) => row.id,
  rowLabel: (row) => row.label,
});

export const logsResource = defineResource<AuditLogRow>({
  noun: '操作日志',
  key: ['system', 'logs'],
  list: 'api/logs',
  download: { url: 'api/logs/download', name: '操作日志' },
  permission: { list: 'log:list' },
  rowId: (row) => row.id,
});

export const loginLogsResource = defineResource<LoginLogRow>({
  noun: '登录日志',
  key: ['system', 'loginLogs'],
  list: 'api/logs/login',
  download: { url: 'api/logs/login/download', name: '登录日志' },
  permission: { list: 'log:list' },
  rowId: (row) => row.id,
});

export const onlineResource = defineResource<OnlineRow>({
  noun: '在线用户',
  key: ['system', 'online'],
  list: 'api/auth/online',
  permission: { list: 'online:list', del: 'online:kick' },
  rowId: (row) => row.id,
  rowLabel: (row) => row.nickName || row.username,
});

/** A menu as GET /api/menus lists it (one level, or the matches of a title search). */
export interface MenuRow {
  id: number;
  parentId: number | null;
  /** 0 directory, 1 menu, 2 button. */
  type: 0 | 1 | 2;
  title: string;
  name: string | null;
  icon: string | null;
  path: string | null;
  component: string | null;
  permission: string | null;
  hidden: boolean;
  cache: boolean;
  affix: boolean;
  sort: number;
  hasChildren: boolean;
}

export const MENU_TYPES = { directory: 0, menu: 1, button: 2 } as const;

export type MenuForm = Omit<MenuRow, 'id' | 'hasChildren'>;

/** GET /api/menus/tree: every menu and button, for pickers. */
export interface MenuTreeNode {
  id: number;
  label: string;
  children?: MenuTreeNode[];
}

export const menusResource = defineResource<MenuRow>({
  noun: '菜单',
  key: ['system', 'menus'],
  list: 'api/menus',
  remove: 'api/menus/delete',
  permission: 'menu',
  rowId: (row) => row.id,
  rowLabel: (row) => row.title,
});

export function fetchMenuLevel(query: { pid?: number; title?: string }): Promise<MenuRow[]> {
  return request<Page<MenuRow>>({ url: 'api/menus', method: 'get', params: query }).then(
    (page) => page.content,
  );
}

export const menuTreeQuery = queryOptions({
  queryKey: [...menusResource.key, 'tree'],
  queryFn: () => request<MenuTreeNode[]>({ url: 'api/menus/tree', method: 'get' }),
});

/** The department tree the caller may see; shares the department list's cache. */
export const deptTreeQuery = queryOptions({
  queryKey: listKey(deptsResource, {}),
  queryFn: () => request<Page<DeptNode>>({ url: 'api/depts', method: 'get' }),
  select: (page) => page.content,
});

export const allRolesQuery = queryOptions({
  queryKey: [...rolesResource.key, 'all'],
  queryFn: () => request<RoleBrief[]>({ url: 'api/roles/all', method: 'get' }),
});

export const roleLevelQuery = queryOptions({
  queryKey: [...rolesResource.key, 'level'],
  queryFn: () => request<{ level: number }>({ url: 'api/roles/level', method: 'get' }),
  select: (answer) => answer.level,
});

export const roleDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [...rolesResource.key, 'detail', id],
    queryFn: () => request<RoleDetail>({ url: `api/roles/${id}`, method: 'get' }),
  });

/** Every enabled job, for the user form. */
export const enabledJobsQuery = queryOptions({
  queryKey: listKey(jobsResource, { page: 0, size: 500, enabled: 'true', sort: 'sort,asc' }),
  queryFn: () =>
    request<Page<JobRow>>({
      url: 'api/jobs',
      method: 'get',
      params: { page: 0, size: 500, enabled: 'true', sort: 'sort,asc' },
    }),
  select: (page) => page.content,
});

export const monitorQuery = queryOptions({
  queryKey: ['system', 'monitor'],
  queryFn: () => request<MonitorResult>({ url: 'api/monitor', method: 'get' }),
});

// ---- user actions with their own answers ----

export function createUser(body: unknown): Promise<OneTimePasswordResult> {
  return postInline<OneTimePasswordResult>('api/users', body);
}

export function resetUserPassword(id: number): Promise<OneTimePasswordResult> {
  return postInline<OneTimePasswordResult>('api/users/resetPass', { id });
}

export function enableUser(id: number, enabled: boolean): Promise<UserRow> {
  return postInline<UserRow>('api/users/enable', { id, enabled });
}

export function grantRoleMenus(id: number, menuIds: number[]): Promise<{ id: number; menuIds: number[] }> {
  return postInline('api/roles/menu', { id, menuIds });
}

export function revokeSessions(ids: RowId[]): Promise<{ revoked: number }> {
  return postInline('api/auth/online/revoke', { ids });
}

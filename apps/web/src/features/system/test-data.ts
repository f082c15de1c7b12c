// Small factories for the system pages' tests: rows as the API answers them.
import type { DeptNode, RoleRow, UserRow } from '@piibs/shared/admin';
import { dictAnswers, pageAnswer } from '@/test/mock-api.ts';

export const DICTS: Record<string, [string, string][]> = {
  user_status: [
    ['true', '启用'],
    ['false', '停用'],
  ],
  user_channel: [
    ['staff', '内部员工'],
    ['agent', '代理人'],
    ['enterprise', '投保企业'],
    ['service', '风控服务机构'],
  ],
  dept_status: [
    ['true', '启用'],
    ['false', '停用'],
  ],
  job_status: [
    ['true', '启用'],
    ['false', '停用'],
  ],
  data_scope: [
    ['all', '全部'],
    ['department', '本部门及下级部门'],
    ['custom', '自定义部门'],
    ['self', '仅本人'],
  ],
};

/** GET api/dictDetail from the dictionaries above. */
export const dictAnswer = dictAnswers(DICTS);

export const page = pageAnswer;

export function userRow(overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 2,
    username: 'zhangsan',
    nickName: '张三',
    phone: '138****5678',
    email: null,
    gender: null,
    avatar: null,
    channel: 'staff',
    uscc: null,
    enabled: true,
    mustChangePassword: false,
    dept: { id: 1, name: '总公司' },
    roles: [{ id: 3, code: 'underwriter', name: '核保员', level: 2 }],
    jobs: [],
    version: 1,
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function roleRow(overrides: Partial<RoleRow> = {}): RoleRow {
  return {
    id: 5,
    code: 'svc_view',
    name: '服务单查看',
    level: 3,
    dataScope: 'self',
    description: null,
    deptIds: [],
    builtin: false,
    version: 1,
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function deptNode(overrides: Partial<DeptNode> = {}): DeptNode {
  return {
    id: 1,
    parentId: null,
    name: '总公司',
    sort: 1,
    enabled: true,
    version: 1,
    createdAt: '2026-01-02T03:04:05.000Z',
    userCount: 3,
    ...overrides,
  };
}

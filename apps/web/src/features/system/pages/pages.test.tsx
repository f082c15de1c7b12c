// Each remaining system page renders its data and its main actions from a mocked API.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { invalidateDict } from '@/lib/dict.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import type { MenuRow } from '../api.ts';
import { deptNode, dictAnswer, page } from '../test-data.ts';
import Depts from './Depts.tsx';
import Dicts from './Dicts.tsx';
import Jobs from './Jobs.tsx';
import LoginLogs from './LoginLogs.tsx';
import Logs from './Logs.tsx';
import Menus from './Menus.tsx';
import Monitor from './Monitor.tsx';
import Online from './Online.tsx';

let api: MockApi;
beforeEach(() => signInAs(['admin']));
afterEach(() => {
  api?.restore();
  resetKitState();
  vi.restoreAllMocks();
});

const menu = (overrides: Partial<MenuRow>): MenuRow => ({
  id: 1,
  parentId: null,
  type: 0,
  title: '系统管理',
  name: null,
  icon: 'system',
  path: '/piibs/system',
  component: null,
  permission: null,
  hidden: false,
  cache: false,
  affix: false,
  sort: 10,
  hasChildren: false,
  ...overrides,
});

describe('system pages', { timeout: 20_000 }, () => {
  it('菜单管理 loads a level when it is opened, and searches by title', async () => {
    api = mockApi({
      'GET api/menus': (config) => {
        const { pid, title } = config.params as { pid?: number; title?: string };
        if (title)
          return page([menu({ id: 12, parentId: 11, type: 2, title: '用户新增', permission: 'user:add' })]);
        if (pid === 10)
          return page([
            menu({
              id: 11,
              parentId: 10,
              type: 1,
              title: '用户管理',
              path: 'user',
              component: 'system/Users',
            }),
          ]);
        return page([menu({ id: 10, hasChildren: true })]);
      },
    });
    const { search } = renderWithProviders(<Menus />, '/piibs/system/menu');
    const row = (await screen.findByText('系统管理')).closest('tr')!;
    expect(screen.queryByText('用户管理')).toBeNull();
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('用户管理')).toBeInTheDocument();
    expect(screen.getByText('system/Users')).toBeInTheDocument();
    expect(api.callsTo('GET api/menus').map((c) => c.params)).toEqual([{}, { pid: 10 }]);

    fireEvent.change(screen.getByLabelText('菜单标题'), { target: { value: '新增' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    expect(await screen.findByText('user:add')).toBeInTheDocument();
    expect(search().get('title')).toBe('新增');
  });

  it('部门管理 shows the tree expanded', async () => {
    api = mockApi({
      'GET api/depts': page([
        deptNode({ children: [deptNode({ id: 4, parentId: 1, name: '镇江分公司', children: [] })] }),
      ]),
      'GET api/dictDetail': dictAnswer,
    });
    renderWithProviders(<Depts />, '/piibs/system/dept');
    expect(await screen.findByText('总公司')).toBeInTheDocument();
    expect(await screen.findByText('镇江分公司')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: '新增下级' })).toHaveLength(2);
  });

  it('岗位管理 lists jobs sorted by their sort order', async () => {
    api = mockApi({
      'GET api/jobs': page([
        { id: 1, name: '核保岗', sort: 1, enabled: true, version: 0, createdAt: '2026-01-02T00:00:00Z' },
      ]),
      'GET api/dictDetail': dictAnswer,
    });
    renderWithProviders(<Jobs />, '/piibs/system/job');
    expect(await screen.findByText('核保岗')).toBeInTheDocument();
    expect(api.callsTo('GET api/jobs')[0]?.params).toEqual({ page: 0, size: 10, sort: 'sort,asc' });
    expect(await screen.findByText('启用')).toBeInTheDocument();
  });

  it('字典管理 shows the picked dictionary’s entries beside the list, from the URL too', async () => {
    const dict = {
      id: 7,
      name: 'user_status',
      description: '用户状态',
      detailCount: 2,
      version: 0,
      createdAt: '2026-01-02',
    };
    api = mockApi({
      'GET api/dict': page([dict]),
      'GET api/dictDetail': dictAnswer,
    });
    const view = renderWithProviders(<Dicts />, '/piibs/system/dict');
    const { search } = view;
    expect(await screen.findByText('请在左侧选择一个字典，查看并维护它的字典项')).toBeInTheDocument();
    fireEvent.click(await screen.findByText('user_status'));
    expect(await screen.findByText('字典项 · 用户状态')).toBeInTheDocument();
    const entries = await screen.findByText('停用');
    expect(within(entries.closest('table')!).getByText('启用')).toBeInTheDocument();
    expect(search().get('dict')).toBe('user_status');
    const entryCall = api
      .callsTo('GET api/dictDetail')
      .find((c) => (c.params as { size: number }).size === 10);
    expect(entryCall?.params).toEqual({ page: 0, size: 10, sort: 'sort,asc', dictName: 'user_status' });
    view.unmount();

    // Opened from the URL (a reload, Back): the dictionary is looked up by its name.
    renderWithProviders(<Dicts />, '/piibs/system/dict?dict=user_status');
    expect(await screen.findByText('字典项 · 用户状态')).toBeInTheDocument();
    expect(api.callsTo('GET api/dict').at(-1)?.params).toMatchObject({ blurry: 'user_status' });
    invalidateDict();
  });

  it('操作日志 and 登录日志 are read-only lists with 导出', async () => {
    api = mockApi({
      'GET api/logs': page([
        {
          id: 1,
          actorId: 1,
          actorName: '系统管理员',
          action: 'create',
          entity: 'user',
          entityId: '9',
          record: '李四',
          detail: { after: { username: 'lisi', roleIds: [5] } },
          lines: ['用户名：lisi', '角色：安全专员'],
          ip: '127.0.0.1',
          createdAt: '2026-01-02T00:00:00Z',
        },
      ]),
      'GET api/logs/login': page([
        {
          id: 1,
          username: 'lisi',
          userId: 9,
          ip: '127.0.0.1',
          userAgent: null,
          browser: 'Chrome 140 / Linux',
          method: 'password',
          success: false,
          reason: 'bad_password',
          createdAt: '2026-01-02T00:00:00Z',
        },
      ]),
    });
    const logs = renderWithProviders(<Logs />, '/piibs/system/log');
    expect(await screen.findByText('系统管理员')).toBeInTheDocument();
    expect(screen.getAllByText('新增').length).toBeGreaterThan(0);
    // The object by its name, what changed in words as the server wrote it: no id, code or JSON on screen.
    expect(screen.getByText('李四')).toBeInTheDocument();
    expect(screen.getByText('用户名：lisi；角色：安全专员')).toBeInTheDocument();
    expect(screen.queryByText(/\{"/)).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '对象ID' })).toBeNull();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    logs.unmount();

    renderWithProviders(<LoginLogs />, '/piibs/system/loginLog');
    expect(await screen.findByText('密码错误')).toBeInTheDocument();
    expect(screen.getByText('失败')).toBeInTheDocument();
    expect(screen.getByText('账号密码')).toBeInTheDocument();
  });

  it('操作日志 searches by 操作人, by object type (in words) and by business number', async () => {
    api = mockApi({ 'GET api/logs': page([]) });
    const { search } = renderWithProviders(<Logs />, '/piibs/system/log');
    await waitFor(() => expect(api.callsTo('GET api/logs')).toHaveLength(1));
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: '操作人' }), '系统自动');
    // The object types in words, filtered as one types.
    await user.type(screen.getByRole('combobox', { name: '操作对象' }), '投保');
    await user.click(await screen.findByTitle('投保单'));
    await user.type(screen.getByRole('textbox', { name: '业务编号/名称' }), 'AZX2026000001');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() =>
      expect(api.callsTo('GET api/logs').at(-1)?.params).toMatchObject({
        actor: '系统自动',
        entity: 'application',
        number: 'AZX2026000001',
        page: 0,
      }),
    );
    expect(search().get('number')).toBe('AZX2026000001');
  });

  it('在线用户: 强制下线 asks, then revokes the session', async () => {
    const session = {
      id: '6f1c7c1e-0000-4000-8000-000000000001',
      userId: 2,
      username: 'zhangsan',
      nickName: '张三',
      dept: '总公司',
      method: 'password',
      ip: '127.0.0.1',
      userAgent: null,
      browser: 'Chrome 140 / Linux',
      createdAt: '2026-01-02T00:00:00Z',
      lastSeenAt: '2026-01-02T00:00:00Z',
      expiresAt: '2026-01-09T00:00:00Z',
      current: false,
    };
    api = mockApi({
      'GET api/auth/online': page([session, { ...session, id: 'mine', username: 'admin', current: true }]),
      'POST api/auth/online/revoke': { data: { revoked: 1 } },
    });
    renderWithProviders(<Online />, '/piibs/system/online');
    expect(await screen.findByText('当前会话')).toBeInTheDocument();
    const [kickOther, kickMine] = screen.getAllByRole('button', { name: '强制下线' });
    expect(kickMine).toBeDisabled();
    fireEvent.click(kickOther!);
    const [title] = await screen.findAllByText('确定强制「张三」下线吗？');
    fireEvent.click(within(title!.closest<HTMLElement>('.ant-modal')!).getByText(/^确\s*定$/));
    await waitFor(() => expect(api.callsTo('POST api/auth/online/revoke')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/auth/online/revoke')[0]?.data))).toEqual({
      ids: [session.id],
    });
  });

  it('服务监控 shows uptime, memory, load, database and the slowest routes, with a link to the API docs', async () => {
    api = mockApi({
      'GET api/monitor': {
        data: {
          server: {
            uptimeSeconds: 90_061,
            startedAt: '2026-01-01T00:00:00Z',
            nodeVersion: 'v24.21.0',
            platform: 'Linux',
            pid: 42,
          },
          memory: {
            rss: 150 * 1024 * 1024,
            heapUsed: 60 * 1024 * 1024,
            heapTotal: 100 * 1024 * 1024,
            external: 1024,
          },
          os: { loadavg: [0.5, 0.4, 0.3], cpus: 4, totalMem: 8 * 1024 ** 3, freeMem: 4 * 1024 ** 3 },
          database: {
            version: 'PostgreSQL 18.1',
            sizeBytes: 12 * 1024 * 1024,
            connections: 7,
            embedded: true,
          },
          slowest: [
            { method: 'GET', route: '/api/users', ms: 123.4, status: 200, at: '2026-01-02T00:00:00Z' },
          ],
          routes: [{ method: 'GET', route: '/api/users', count: 3, avgMs: 50, maxMs: 123.4 }],
          docsUrl: '/api/docs',
        },
      },
    });
    renderWithProviders(<Monitor />, '/piibs/system/monitor');
    expect(await screen.findByText('1 天 1 小时')).toBeInTheDocument();
    expect(screen.getByText('150 MB')).toBeInTheDocument();
    expect(screen.getByText('12.0 MB')).toBeInTheDocument();
    expect(screen.getByText('PostgreSQL 18.1')).toBeInTheDocument();
    expect(screen.getAllByText('/api/users')).toHaveLength(2);
    expect(screen.getByRole('link', { name: /接口文档/ })).toHaveAttribute('href', '/api/docs');
  });

  it('服务监控 on a phone: a card per slow request and per route, headed by the route, slowest route first', async () => {
    onPhone();
    const stat = (route: string, maxMs: number) => ({ method: 'GET', route, count: 3, avgMs: 50, maxMs });
    api = mockApi({
      'GET api/monitor': {
        data: {
          server: {
            uptimeSeconds: 60,
            startedAt: '2026-01-01T00:00:00Z',
            nodeVersion: 'v24',
            platform: 'Linux',
            pid: 1,
          },
          memory: { rss: 1, heapUsed: 1, heapTotal: 2, external: 1 },
          os: { loadavg: [0, 0, 0], cpus: 2, totalMem: 2, freeMem: 1 },
          database: { version: 'PostgreSQL 18.1', sizeBytes: 1, connections: 1, embedded: true },
          slowest: [
            { method: 'POST', route: '/api/applications', ms: 812, status: 201, at: '2026-01-02T00:00:00Z' },
          ],
          routes: [stat('/api/menus', 20), stat('/api/applications', 812)],
          docsUrl: '/api/docs',
        },
      },
    });
    renderWithProviders(<Monitor />, '/piibs/system/monitor');
    const slow = await screen.findByRole('list', { name: '慢请求列表' });
    const [request] = within(slow).getAllByRole('listitem');
    expect(request!.querySelector('.crud-card-title')).toHaveTextContent('/api/applications');
    expect(within(request!).getByText('耗时').nextElementSibling).toHaveTextContent('812 ms');
    const routes = within(screen.getByRole('list', { name: '接口列表' })).getAllByRole('listitem');
    expect(routes.map((card) => card.querySelector('.crud-card-title')?.textContent)).toEqual([
      '/api/applications',
      '/api/menus',
    ]);
  });
});

import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { usePermissionStore } from '@/stores/permission.ts';
import { useUserStore } from '@/stores/user.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { customerRow, dictAnswer } from '../test-data.ts';
import CustomerEditPage from './CustomerEditPage.tsx';

const PATTERN = '/piibs/applicant/newUpdate/:id/:detail';
// 企业信息 as the menus register it: a static path, so the page gets no route params there.
const MINE = '/piibs/applicant/newUpdate/mine/false';
const OWN_USCC = '91440300708461136T';
let api: MockApi;

/** The menus of a user who has 客户列表 (underwriters, agents), or of an enterprise (企业信息 only). */
function menusWith(children: { path: string; component: string; title: string }[]) {
  usePermissionStore.getState().setMenus([
    {
      path: '/piibs/applicant',
      component: 'Layout',
      meta: { title: '客户管理' },
      children: children.map((c) => ({ path: c.path, component: c.component, meta: { title: c.title } })),
    },
  ]);
}
const STAFF_MENUS = [{ path: 'list', component: 'applicant/CustomerList', title: '客户列表' }];
const ENTERPRISE_MENUS = [
  { path: 'newUpdate/mine/false', component: 'applicant/ApplicantEdit', title: '企业信息' },
];

/** An enterprise account (role 17) of the code OWN_USCC. */
function signInEnterprise() {
  signInAs([ROLE_CODES.enterprise], ['customer:list', 'customer:add', 'customer:edit']);
  useUserStore.setState((state) => ({ user: { ...state.user!, uscc: OWN_USCC } }));
  menusWith(ENTERPRISE_MENUS);
}

beforeEach(() => {
  signInAs(['underwriter'], ['customer:list', 'customer:add', 'customer:edit']);
  menusWith(STAFF_MENUS);
});
afterEach(() => {
  api?.restore();
  resetKitState();
  usePermissionStore.getState().reset();
});

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)?.data));

describe('客户信息', { timeout: 40_000 }, () => {
  it('detail=true shows the customer read-only, with its review status and last opinion', async () => {
    api = mockApi({
      'GET api/customers/7': {
        data: customerRow({
          reviewStatus: 'returned',
          reviewOpinion: '营业执照已过期',
          reviewedAt: '2026-11-21T02:00:00.000Z',
        }),
      },
      'GET api/dictDetail': dictAnswer,
    });
    renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/true');
    expect(await screen.findByDisplayValue('镇江示范机械有限公司')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('联系电话')).toHaveValue('138****5678');
    expect(screen.getByText('营业执照已过期')).toBeInTheDocument();
    expect(screen.getByText('2026-11-21 10:00:00')).toBeInTheDocument(); // Asia/Shanghai
    expect(screen.getAllByText('已退回').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '重新提交审核' })).toBeNull();
  });

  it('new: the shared rules speak at the fields; a server 400 is shown at its field', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'POST api/customers': {
        status: 400,
        data: {
          status: 400,
          message: '详细地址：不能超过 200 个字符',
          errors: [{ field: 'address', message: '不能超过 200 个字符' }],
        },
      },
    });
    renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/0/false');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('统一社会信用代码'), '12345');
    await user.type(screen.getByLabelText('联系电话'), '12345');
    await user.type(screen.getByLabelText('单位总人数'), 'abc');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入正确的统一社会信用代码')).toBeInTheDocument();
    expect(screen.getByText('请输入正确的电话号码或者固话号码')).toBeInTheDocument();
    expect(screen.getByText('请输入正确的单位总人数')).toBeInTheDocument();
    expect(api.callsTo('POST api/customers')).toHaveLength(0);
  });

  it('edit: saves with the version; a returned customer can be resubmitted; 400 at the field', async () => {
    api = mockApi({
      'GET api/customers/7': { data: customerRow({ reviewStatus: 'returned', reviewOpinion: '请补充地址' }) },
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/update': {
        status: 400,
        data: {
          status: 400,
          message: '联系人：不能超过 30 个字符',
          errors: [{ field: 'contactName', message: '不能超过 30 个字符' }],
        },
      },
      'POST api/customers/7/resubmit': { data: customerRow({ reviewStatus: 'pending', version: 4 }) },
    });
    const { router } = renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/false');
    const user = userEvent.setup();
    await screen.findByDisplayValue('镇江示范机械有限公司');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('不能超过 30 个字符')).toHaveClass('ant-form-item-explain-error');
    expect(body('POST api/customers/update')).toMatchObject({
      id: 7,
      version: 3,
      phone: '138****5678',
      headcount: 120,
      industryDivision: '34',
    });

    await user.click(screen.getByRole('button', { name: '重新提交审核' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/applicant/list'));
    expect(body('POST api/customers/7/resubmit')).toEqual({ version: 3 });
  });

  it('a 409 on save loads what the server holds now and shows its message', async () => {
    let loads = 0;
    api = mockApi({
      'GET api/customers/7': () => {
        loads += 1;
        return { data: customerRow(loads > 1 ? { version: 4, contactName: '钱七' } : {}) };
      },
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/update': { status: 409, data: { status: 409, message: '该客户已被他人修改' } },
    });
    renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/false');
    const user = userEvent.setup();
    await screen.findByDisplayValue('镇江示范机械有限公司');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('该客户已被他人修改');
    expect(await screen.findByDisplayValue('钱七')).toBeInTheDocument();
  });
});

describe('查看完整号码 on the customer page', { timeout: 40_000 }, () => {
  it('is offered only with customer:unmask, and fills in the number the server answers', async () => {
    api = mockApi({
      'GET api/customers/7': { data: customerRow() },
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/7/unmask': { data: { phone: '13812345678' } },
    });
    const first = renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/true');
    await screen.findByDisplayValue('镇江示范机械有限公司');
    expect(screen.queryByRole('button', { name: '查看完整号码' })).toBeNull();
    first.unmount();

    signInAs(['underwriter'], ['customer:list', 'customer:edit', 'customer:unmask']);
    renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/true');
    await screen.findByDisplayValue('镇江示范机械有限公司');
    expect(screen.getByLabelText('联系电话')).toHaveValue('138****5678');
    await userEvent.setup().click(await screen.findByRole('button', { name: '查看完整号码' }));
    await waitFor(() => expect(screen.getByLabelText('联系电话')).toHaveValue('13812345678'));
    expect(api.callsTo('POST api/customers/7/unmask')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: '查看完整号码' })).toBeNull();
  });
});

describe('企业信息: the enterprise keeps its own record', { timeout: 40_000 }, () => {
  beforeEach(signInEnterprise);

  it('opens the record of its own code; an edit stays on the record and says it went back to review', async () => {
    let held = customerRow({ uscc: OWN_USCC, reviewStatus: 'approved', openTaskId: null, ownerId: null });
    api = mockApi({
      'GET api/customers/mine': () => ({ data: held }),
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/update': () => {
        held = { ...held, reviewStatus: 'pending', openTaskId: 12, headcount: 150, version: 4 };
        return { data: held };
      },
    });
    const { router } = renderRoute(<CustomerEditPage />, MINE, MINE);
    expect(await screen.findByDisplayValue('镇江示范机械有限公司')).not.toHaveAttribute('readonly');
    expect(screen.getByText('企业信息')).toBeInTheDocument();
    expect(screen.getByLabelText('统一社会信用代码')).toHaveAttribute('readonly');
    expect(screen.getByText('保存修改后将重新提交审核，审核通过后方可用于投保')).toBeInTheDocument();
    expect(screen.getAllByText('审核通过').length).toBeGreaterThan(0);

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('单位总人数'));
    await user.type(screen.getByLabelText('单位总人数'), '150');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('保存成功，已提交审核')).toBeInTheDocument();
    expect(body('POST api/customers/update')).toMatchObject({
      id: 7,
      version: 3,
      uscc: OWN_USCC,
      headcount: 150,
    });
    await waitFor(() => expect(screen.getAllByText('待审核').length).toBeGreaterThan(0));
    expect(router.state.location.pathname).toBe(MINE);
  });

  it('not registered yet: a new record of its own code, which it then stays on', async () => {
    let registered = false;
    api = mockApi({
      'GET api/customers/mine': () =>
        registered
          ? { data: customerRow({ uscc: OWN_USCC, id: 9, version: 0 }) }
          : { status: 404, data: { status: 404, message: '本企业尚未登记投保人信息' } },
      'GET api/dictDetail': dictAnswer,
      'POST api/customers': () => {
        registered = true;
        return { data: customerRow({ uscc: OWN_USCC, id: 9, version: 0 }) };
      },
    });
    const { router } = renderRoute(<CustomerEditPage />, MINE, MINE);
    expect(await screen.findByText('本企业尚未登记投保人信息，请填写后保存，提交审核')).toBeInTheDocument();
    const code = screen.getByLabelText('统一社会信用代码');
    expect(code).toHaveValue(OWN_USCC);
    expect(code).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: '重新提交审核' })).toBeNull();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('投保人名称'), '镇江示范机械有限公司');
    await user.click(screen.getByRole('combobox', { name: '行业门类' }));
    await user.click(await screen.findByTitle('制造业'));
    await user.click(screen.getByRole('combobox', { name: '行业大类' }));
    await user.click(await screen.findByTitle('通用设备制造业'));
    await user.click(screen.getByRole('combobox', { name: '所在地区' }));
    await user.click(await screen.findByTitle('京口区'));
    await user.type(screen.getByLabelText('详细地址'), '镇江市京口区学府路 1 号');
    await user.type(screen.getByLabelText('法定代表人'), '王五');
    await user.type(screen.getByLabelText('联系人'), '赵六');
    await user.type(screen.getByLabelText('联系电话'), '13812345678');
    await user.type(screen.getByLabelText('单位总人数'), '120');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('新增成功，已提交审核')).toBeInTheDocument();
    expect(body('POST api/customers')).toMatchObject({ uscc: OWN_USCC, headcount: 120 });
    await waitFor(() => expect(screen.getByLabelText('联系电话')).toHaveValue('138****5678'));
    expect(screen.queryByText('本企业尚未登记投保人信息，请填写后保存，提交审核')).toBeNull();
    expect(router.state.location.pathname).toBe(MINE);
  });

  it('an account without an enterprise code is told so instead of a form', async () => {
    useUserStore.setState((state) => ({ user: { ...state.user!, uscc: null } }));
    api = mockApi({
      'GET api/customers/mine': { status: 404, data: { status: 404, message: '当前账号未关联企业' } },
      'GET api/dictDetail': dictAnswer,
    });
    renderRoute(<CustomerEditPage />, MINE, MINE);
    expect(
      await screen.findByText('当前账号未关联企业（统一社会信用代码），无法维护企业信息'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('统一社会信用代码')).toBeNull();
  });

  it('opened by id (no customer list in its menus), a save stays on the record', async () => {
    api = mockApi({
      'GET api/customers/7': { data: customerRow({ uscc: OWN_USCC, reviewStatus: 'returned' }) },
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/update': {
        data: customerRow({ uscc: OWN_USCC, reviewStatus: 'pending', version: 4 }),
      },
    });
    const { router } = renderRoute(<CustomerEditPage />, PATTERN, '/piibs/applicant/newUpdate/7/false');
    await screen.findByDisplayValue('镇江示范机械有限公司');
    await userEvent.setup().click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('保存成功，已提交审核')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/applicant/newUpdate/7/false');
  });
});

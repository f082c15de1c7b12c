import type { OrgMemberRow } from '@piibs/shared/risk-control';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { dictAnswer } from '@/features/customer/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { orgRow, page } from '../test-data.ts';
import Expert from './Expert.tsx';
import ServiceOrgEdit from './ServiceOrgEdit.tsx';

const PATTERN = '/piibs/riskControl/serviceOrg/newUpdate/:id/:detail';
const url = (id: number, detail = false) => `/piibs/riskControl/serviceOrg/newUpdate/${id}/${detail}`;
const STAFF = ['service_org:list', 'service_org:add', 'service_org:edit', 'service_org:del'];
/** A code passing GB 32100 (check character P); ending in 0 it fails the check. */
const CODE = '91321100MA1AQFW3KP';
const org = (over: Parameters<typeof orgRow>[0] = {}) => orgRow({ code: CODE, ...over });
/** The machine running the tests is slow: a refusal or a navigation may take a few seconds to show. */
const SLOW = { timeout: 5000 };
let api: MockApi;

beforeEach(() => signInAs(['underwriter'], STAFF));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)!.data));
const saveButton = () => screen.getByRole('button', { name: /^保\s*存$/ });
const account = (userId: number, username: string, nickName: string): OrgMemberRow => ({
  userId,
  username,
  nickName,
  enabled: true,
});

/** Enters text as a paste (one change, not one per character: the form is large). */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

/** Types a day into a date picker and confirms it. */
async function pickDay(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, day: string) {
  await user.click(input);
  fireEvent.change(input, { target: { value: day } });
  await user.keyboard('{Enter}');
}

describe('服务机构', { timeout: 60_000 }, () => {
  it('creates: the GB 32100 check is shown at the code, then qualifications and contacts are posted', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'POST api/service-orgs': { data: org({ id: 9 }) },
    });
    renderRoute(<ServiceOrgEdit />, PATTERN, url(0));
    const user = userEvent.setup();
    const code = await screen.findByLabelText('统一社会信用代码');
    await fill(user, code, '91321100MA1AQFW3K0');
    await fill(user, screen.getByLabelText('机构名称'), '镇江安泰安全技术服务有限公司');
    await user.click(screen.getByRole('combobox', { name: '服务地区' }));
    await user.click(await screen.findByTitle('京口区'));
    await user.click(screen.getByRole('combobox', { name: '服务行业' }));
    await user.click(await screen.findByTitle('制造业'));
    await fill(user, screen.getByLabelText('资质名称'), '安全评价机构资质');
    await fill(user, screen.getByLabelText('资质证书编号'), 'APJ-2024-018');
    await pickDay(user, screen.getByLabelText('有效期起'), '2024-03-01');
    await pickDay(user, screen.getByLabelText('有效期止'), '2029-02-28');
    await fill(user, screen.getByLabelText('联系人'), '周建华');
    await fill(user, screen.getByLabelText('联系电话'), '13900000001');

    await user.click(saveButton());
    const codeItem = code.closest('.ant-form-item') as HTMLElement;
    expect(await within(codeItem).findByText('请输入正确的统一社会信用代码', {}, SLOW)).toBeInTheDocument();
    expect(api.callsTo('POST api/service-orgs')).toHaveLength(0);

    await user.clear(code);
    await fill(user, code, CODE);
    await user.click(saveButton());
    expect(await screen.findByText('other page', {}, SLOW)).toBeInTheDocument();
    expect(body('POST api/service-orgs')).toEqual({
      code: CODE,
      name: '镇江安泰安全技术服务有限公司',
      address: null,
      qualifications: [
        {
          name: '安全评价机构资质',
          certNo: 'APJ-2024-018',
          level: null,
          validFrom: '2024-03-01',
          validTo: '2029-02-28',
        },
      ],
      regions: ['321102'],
      industries: ['C'],
      contacts: [{ name: '周建华', phone: '13900000001', position: null }],
      enabled: true,
      note: null,
    });
  });

  it('refuses a qualification ending before it starts; saves the list with the loaded version', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/service-orgs/3': { data: org() },
      'GET api/service-orgs/3/members': { data: [] },
      'GET api/service-orgs/3/member-candidates': { data: [] },
      'POST api/service-orgs/update': { data: org({ version: 2 }) },
    });
    renderRoute(<ServiceOrgEdit />, PATTERN, url(3));
    expect(await screen.findByDisplayValue('镇江安泰安全技术服务有限公司')).toBeInTheDocument();
    expect(screen.getByDisplayValue('2024-03-01')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /添加资质/ }));
    await fill(user, screen.getAllByLabelText('资质名称')[1]!, '应急预案评审资质');
    await fill(user, screen.getAllByLabelText('资质证书编号')[1]!, 'YJ-2026-001');
    await pickDay(user, screen.getAllByLabelText('有效期起')[1]!, '2026-06-01');
    await pickDay(user, screen.getAllByLabelText('有效期止')[1]!, '2026-01-01');
    await user.click(saveButton());
    expect(await screen.findByText('不能早于有效期起', {}, SLOW)).toBeInTheDocument();
    expect(api.callsTo('POST api/service-orgs/update')).toHaveLength(0);

    await pickDay(user, screen.getAllByLabelText('有效期止')[1]!, '2027-05-31');
    await user.click(saveButton());
    expect(await screen.findByText('other page', {}, SLOW)).toBeInTheDocument();
    expect(body('POST api/service-orgs/update')).toMatchObject({
      id: 3,
      version: 1,
      qualifications: [
        { name: '安全评价机构资质', validFrom: '2024-03-01', validTo: '2029-02-28' },
        {
          name: '应急预案评审资质',
          certNo: 'YJ-2026-001',
          level: null,
          validFrom: '2026-06-01',
          validTo: '2027-05-31',
        },
      ],
    });
  });

  /** Organisation 3 loaded with its masked contact, saved as version 2; its unmask answers the full number. */
  const savedOrg3 = () => ({
    'GET api/dictDetail': dictAnswer,
    'GET api/service-orgs/3': { data: org() },
    'GET api/service-orgs/3/members': { data: [] },
    'GET api/service-orgs/3/member-candidates': { data: [] },
    'POST api/service-orgs/update': { data: org({ version: 2 }) },
    'POST api/service-orgs/3/unmask': {
      data: { contacts: [{ name: '周建华', phone: '13900000001', position: '技术负责人' }] },
    },
  });

  it('sends the masked phone back as loaded (the server keeps the stored number)', async () => {
    api = mockApi(savedOrg3());
    renderRoute(<ServiceOrgEdit />, PATTERN, url(3));
    await screen.findByDisplayValue('139****0001');
    const user = userEvent.setup();
    await user.click(saveButton());
    await screen.findByText('other page', {}, SLOW);
    expect(body('POST api/service-orgs/update').contacts).toEqual([
      { name: '周建华', phone: '139****0001', position: '技术负责人' },
    ]);
  });

  it('shows the full phone on 查看完整号码 and saves it', async () => {
    api = mockApi(savedOrg3());
    renderRoute(<ServiceOrgEdit />, PATTERN, url(3));
    await screen.findByDisplayValue('139****0001');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '查看完整号码' }));
    expect(await screen.findByDisplayValue('13900000001')).toBeInTheDocument();
    expect(api.callsTo('POST api/service-orgs/3/unmask')).toHaveLength(1);
    await user.click(saveButton());
    await screen.findByText('other page', {}, SLOW);
    expect(body('POST api/service-orgs/update').contacts[0].phone).toBe('13900000001');
  });

  it('links accounts: lists them, searches service accounts, shows a 409 and saves the new list', async () => {
    const zhou = account(21, 'atai01', '安泰周工');
    const li = account(22, 'atai02', '安泰李工');
    const wang = account(23, 'atai03', '安泰王工');
    let members = [zhou];
    let attempts = 0;
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/service-orgs/3': { data: org() },
      'GET api/service-orgs/3/members': () => ({ data: members }),
      'GET api/service-orgs/3/member-candidates': (config) => {
        const keyword = (config.params as { keyword?: string } | undefined)?.keyword ?? '';
        return {
          data: [zhou, li, wang].filter((a) => a.nickName.includes(keyword) || a.username.includes(keyword)),
        };
      },
      'POST api/service-orgs/3/members': (config) => {
        attempts++;
        if (attempts === 1)
          return {
            status: 409,
            data: {
              status: 409,
              message:
                '机构账号：账号 atai02 已属于其他服务机构「江苏华安应急技术咨询有限公司」，请先从该机构移除',
            },
          };
        const ids = JSON.parse(String(config.data)).userIds as number[];
        members = [zhou, li, wang].filter((a) => ids.includes(a.userId));
        return { data: members };
      },
    });
    renderRoute(<ServiceOrgEdit />, PATTERN, url(3));
    const list = await screen.findByRole('list', { name: '机构账号' });
    expect(within(list).getByText('安泰周工')).toBeInTheDocument();
    expect(within(list).getByText('atai01')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: '保存机构账号' });
    expect(save).toBeDisabled();

    const user = userEvent.setup();
    const picker = screen.getByRole('combobox', { name: '选择账号' });
    await user.click(picker);
    await user.type(picker, '李');
    await user.click(await screen.findByTitle('安泰李工（atai02）', {}, SLOW));
    await waitFor(() =>
      expect(
        api
          .callsTo('GET api/service-orgs/3/member-candidates')
          .some((c) => (c.params as { keyword?: string } | undefined)?.keyword === '李'),
      ).toBe(true),
    );
    await user.click(save);
    expect(
      await screen.findByText(
        '机构账号：账号 atai02 已属于其他服务机构「江苏华安应急技术咨询有限公司」，请先从该机构移除',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(body('POST api/service-orgs/3/members')).toEqual({ userIds: [21, 22] });

    // Take 李工 out again, add 王工 instead.
    const liTag = (await screen.findAllByTitle('安泰李工（atai02）')).find((el) =>
      el.closest('.ant-select-selection-item'),
    )!;
    await user.click(
      within(liTag.closest('.ant-select-selection-item') as HTMLElement).getByLabelText('close'),
    );
    await user.click(picker);
    await user.type(picker, 'atai03');
    await user.click(await screen.findByTitle('安泰王工（atai03）', {}, SLOW));
    await user.click(save);
    expect(await screen.findByText('机构账号已保存', {}, SLOW)).toBeInTheDocument();
    expect(body('POST api/service-orgs/3/members')).toEqual({ userIds: [21, 23] });
    await waitFor(() => expect(within(list).getByText('安泰王工')).toBeInTheDocument());
    expect(within(list).queryByText('安泰李工')).toBeNull();
    expect(screen.queryByText(/已属于其他服务机构/)).toBeNull();
  });

  it('read-only: the accounts are listed without a picker; an organisation account sees no account card', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/service-orgs/3': { data: org() },
      'GET api/service-orgs/3/members': { data: [account(21, 'atai01', '安泰周工')] },
    });
    const view = renderRoute(<ServiceOrgEdit />, PATTERN, url(3, true));
    const list = await screen.findByRole('list', { name: '机构账号' });
    expect(within(list).getByText('安泰周工')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: '选择账号' })).toBeNull();
    expect(screen.queryByRole('button', { name: '保存机构账号' })).toBeNull();
    expect(api.callsTo('GET api/service-orgs/3/member-candidates')).toHaveLength(0);
    view.unmount();

    resetKitState();
    signInAs(['service'], ['service_org:list', 'service_org:edit']);
    renderRoute(<ServiceOrgEdit />, PATTERN, url(3));
    expect(await screen.findByDisplayValue('镇江安泰安全技术服务有限公司')).toBeInTheDocument();
    expect(screen.getByLabelText('统一社会信用代码')).toBeDisabled();
    expect(screen.queryByText('机构账号')).toBeNull();
  });

  it('marks organisations without a linked account in the list', async () => {
    api = mockApi({
      'GET api/service-orgs': page([org({ memberCount: 0 })]),
      'GET api/service-persons': page([]),
    });
    renderRoute(<Expert />, '/piibs/riskControl/prevention/expert', '/piibs/riskControl/prevention/expert');
    expect(await screen.findByText('未关联')).toBeInTheDocument();
  });
});

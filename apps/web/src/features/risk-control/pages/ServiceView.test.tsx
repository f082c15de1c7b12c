import { ROLE_CODES } from '@piibs/shared/auth';
import type { ComplaintRow } from '@piibs/shared/risk-control';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { dictAnswer, orderDetail, SEQ } from '../test-data.ts';
import ServiceView from './ServiceView.tsx';

const PATTERN = '/piibs/riskControl/prevention/view/:seqNo';
const NUMBER = `${SEQ}-003`;
const URL = `/piibs/riskControl/prevention/view/${SEQ}?order=${NUMBER}`;
let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
});

const submitted = orderDetail({
  id: 33,
  number: NUMBER,
  status: 'SUBMITTED',
  statusLabel: '待企业确认',
  party: 'enterprise',
  actions: ['confirm', 'return'],
  canComplain: true,
  version: 5,
  serviceDate: '2026-05-10',
  findings: '组织火灾事故应急疏散演练。',
  participants: [{ name: '王振国', side: 'ORG', position: null }],
});

function answers(over: Record<string, unknown> = {}) {
  return {
    [`GET api/prevention/orders/${NUMBER}`]: { data: submitted },
    'GET api/materials': {
      data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
    },
    'GET api/dictDetail': dictAnswer,
    ...over,
  };
}

function complaint(over: Partial<ComplaintRow> = {}): ComplaintRow {
  return {
    id: 91,
    content: '隐患描述过于简单，没有整改建议',
    complainedOn: '2026-05-08',
    deadline: '2026-05-22',
    status: 'OPEN',
    reply: null,
    repliedAt: null,
    repliedBy: null,
    overdue: false,
    createdBy: '陈晓梅',
    createdAt: '2026-05-08T02:00:00.000Z',
    ...over,
  };
}

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)!.data));
const button = async (name: RegExp) => (await screen.findByText(name)).closest('button')!;

describe('服务详情', { timeout: 40_000 }, () => {
  it('the enterprise confirms with a rating: posts the loaded version, then shows the result page', async () => {
    signInAs([ROLE_CODES.enterprise], ['prevention:list', 'prevention:confirm']);
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/confirm`]: {
          data: { ...submitted, status: 'CONFIRMED', version: 6, satisfaction: 4, actions: [] },
        },
      }),
    );
    const { router } = renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByTestId('order-findings')).toHaveTextContent('组织火灾事故应急疏散演练。');
    const user = userEvent.setup();
    await user.click(await button(/^确认服务$/));
    const dialog = (await screen.findByText('确认服务并评价')).closest('.ant-modal') as HTMLElement;
    // No confirmation without a rating: 确定 asks for one and sends nothing.
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    expect(await within(dialog).findByText('请选择满意度')).toBeInTheDocument();
    expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/confirm`)).toHaveLength(0);
    const stars = dialog.querySelectorAll('.ant-rate-star > div');
    await user.click(stars[3]!);
    await user.type(within(dialog).getByLabelText('评价'), '服务专业');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );

    await waitFor(() => expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/confirm`)).toHaveLength(1));
    expect(body(`POST api/prevention/orders/${NUMBER}/confirm`)).toEqual({
      version: 5,
      satisfaction: 4,
      comment: '服务专业',
    });
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        `/piibs/riskControl/prevention/success/${SEQ}?order=${NUMBER}`,
      ),
    );
  });

  it('sends back with an opinion; a 409 reloads the order and says so in the dialog', async () => {
    signInAs([ROLE_CODES.enterprise], ['prevention:list', 'prevention:confirm']);
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/return`]: {
          status: 409,
          data: { status: 409, message: '服务单已被他人修改，请刷新后重试' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    const user = userEvent.setup();
    await user.click(await button(/^退回服务记录$/));
    const dialog = (await screen.findByText('退回意见')).closest('.ant-modal') as HTMLElement;
    await user.type(within(dialog).getByLabelText('退回意见'), '请补充配电房检查情况');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    expect(await within(dialog).findByText(/服务单已被他人修改/)).toBeInTheDocument();
    expect(body(`POST api/prevention/orders/${NUMBER}/return`)).toEqual({
      version: 5,
      opinion: '请补充配电房检查情况',
    });
    await waitFor(() => expect(api.callsTo(`GET api/prevention/orders/${NUMBER}`).length).toBeGreaterThan(1));
  });

  it('the organisation sees no confirmation, and marks an open hazard 已整改 after it', async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve']);
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: {
          data: {
            ...submitted,
            status: 'CONFIRMED',
            party: 'org',
            actions: [],
            canComplain: false,
            canRectify: true,
            hazards: [
              {
                id: 81,
                seq: 1,
                description: '三楼应急照明灯故障',
                location: '办公楼三楼',
                level: 'GENERAL',
                levelLabel: '一般',
                measure: null,
                deadline: '2026-05-20',
                status: 'OPEN',
                statusLabel: '待整改',
                rectifiedDate: null,
                rectifyNote: null,
                overdue: false,
              },
            ],
          },
        },
        [`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`]: {
          data: { ...submitted, status: 'CLOSED' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByText('三楼应急照明灯故障')).toBeInTheDocument();
    expect(screen.queryByText('确认服务')).toBeNull();
    const user = userEvent.setup();
    await user.click(await button(/^已整改$/));
    const dialog = (await screen.findByText(/^登记隐患整改/)).closest('.ant-modal') as HTMLElement;
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    await waitFor(() =>
      expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`)).toHaveLength(1),
    );
    expect(body(`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`)).toMatchObject({
      version: 5,
      note: null,
    });
  });

  it('the enterprise complains: the content is sent trimmed, the reply deadline and an overdue one are shown', async () => {
    signInAs([ROLE_CODES.enterprise], ['prevention:list', 'prevention:confirm']);
    const older = complaint({
      id: 90,
      content: '上次服务人员迟到两小时',
      complainedOn: '2026-04-01',
      deadline: '2026-04-15',
      overdue: true,
    });
    const fresh = complaint({ id: 91 });
    // The server's order: the complaint is added by the POST, and the reload after it reads it.
    let current = { ...submitted, complaints: [older] };
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: () => ({ data: current }),
        [`POST api/prevention/orders/${NUMBER}/complaints`]: () => {
          current = { ...current, canComplain: false, openComplaint: true, complaints: [fresh, older] };
          return { data: current };
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    // The unanswered complaint past its deadline carries 已逾期.
    const old = await screen.findByTestId('complaint-90');
    expect(within(old).getByText('已逾期')).toBeInTheDocument();
    expect(old).toHaveTextContent('答复期限 2026-04-15');
    // The enterprise answers nothing.
    expect(within(old).queryByText(/^答\s*复$/)).toBeNull();

    const user = userEvent.setup();
    await user.click((await screen.findByText(/^投\s*诉$/, { selector: 'button span' })).closest('button')!);
    const dialog = (await screen.findByText('投诉服务（10 个工作日内答复）')).closest(
      '.ant-modal',
    ) as HTMLElement;
    // Blank content is refused in the form.
    await user.type(within(dialog).getByLabelText('投诉内容'), '   ');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    expect(await within(dialog).findByText('请输入投诉内容')).toBeInTheDocument();
    expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/complaints`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('投诉内容'), '隐患描述过于简单，没有整改建议 ');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    await waitFor(() =>
      expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/complaints`)).toHaveLength(1),
    );
    expect(body(`POST api/prevention/orders/${NUMBER}/complaints`)).toEqual({
      content: '隐患描述过于简单，没有整改建议',
    });
    // The new complaint with its deadline 10 working days on, not overdue; no second complaint while it is open.
    const added = await screen.findByTestId('complaint-91');
    expect(added).toHaveTextContent('2026-05-08 · 答复期限 2026-05-22');
    expect(added).toHaveTextContent('待答复');
    expect(within(added).queryByText('已逾期')).toBeNull();
    await waitFor(() => expect(screen.queryByText(/^投\s*诉$/, { selector: 'button span' })).toBeNull());
  });

  it('the organisation answers an open complaint in the reply dialog', async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve']);
    const open = complaint({ id: 91 });
    const orgView = {
      ...submitted,
      party: 'org' as const,
      actions: [],
      canComplain: false,
      complaints: [open],
    };
    const REPLY = `POST api/prevention/orders/${NUMBER}/complaints/91/reply`;
    let current = orderDetail(orgView);
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: () => ({ data: current }),
        [REPLY]: () => {
          current = orderDetail({
            ...orgView,
            complaints: [
              {
                ...open,
                status: 'REPLIED',
                reply: '已安排专家补充整改建议',
                repliedAt: '2026-05-11T02:00:00.000Z',
                repliedBy: '安泰客服',
              },
            ],
          });
          return { data: current };
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    const item = await screen.findByTestId('complaint-91');
    const user = userEvent.setup();
    await user.click(
      within(item)
        .getByText(/^答\s*复$/)
        .closest('button')!,
    );
    const dialog = (await screen.findByText('答复内容')).closest('.ant-modal') as HTMLElement;
    // The complaint being answered is quoted in the dialog.
    expect(within(dialog).getByText('隐患描述过于简单，没有整改建议')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('答复内容'), ' 已安排专家补充整改建议 ');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    await waitFor(() => expect(api.callsTo(REPLY)).toHaveLength(1));
    expect(body(REPLY)).toEqual({ reply: '已安排专家补充整改建议' });
    await waitFor(() => expect(screen.getByTestId('complaint-91')).toHaveTextContent('已答复'));
    const answered = screen.getByTestId('complaint-91');
    expect(answered).toHaveTextContent('已安排专家补充整改建议');
    expect(within(answered).queryByText(/^答\s*复$/)).toBeNull();
  });

  it('shows the 404 page for an order the caller may not see', async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve']);
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: {
          status: 404,
          data: { status: 404, message: '服务单不存在' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByText('服务单不存在或无权查看')).toBeInTheDocument();
    expect(screen.getByText('返回我的服务单')).toBeInTheDocument();
  });
});

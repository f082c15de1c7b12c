import { shanghaiToday } from '@piibs/shared/application-status';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { dictAnswer, orderDetail, SEQ } from '../test-data.ts';
import ServiceRecord from './ServiceRecord.tsx';

const PATTERN = '/piibs/riskControl/prevention/service/:seqNo';
const NUMBER = `${SEQ}-002`;
const URL = `/piibs/riskControl/prevention/service/${SEQ}?order=${NUMBER}`;
let api: MockApi;

beforeEach(() => signInAs(['service'], ['prevention:list', 'prevention:serve']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const inService = orderDetail({
  id: 32,
  number: NUMBER,
  status: 'IN_SERVICE',
  statusLabel: '服务中',
  actions: ['submit'],
  canRecord: true,
  serviceDate: '2026-05-10',
  address: '镇江市润州区南徐大道 88 号',
  findings: '对生产车间进行了隐患排查。',
  participants: [{ name: '王振国', side: 'ORG', position: '高级工程师' }],
  hazards: [
    {
      id: 71,
      seq: 1,
      description: '二号车间消防通道堆放物料',
      location: '二号车间',
      level: 'SERIOUS',
      levelLabel: '较大',
      measure: '立即清理',
      deadline: '2026-05-17',
      status: 'OPEN',
      statusLabel: '待整改',
      rectifiedDate: null,
      rectifyNote: null,
      overdue: false,
    },
  ],
});

function answers(over: Record<string, unknown> = {}) {
  return {
    [`GET api/prevention/orders/${NUMBER}`]: { data: inService },
    'GET api/materials': {
      data: { content: [], totalElements: 0, editable: true, readOnlyReason: null, editableDocTypes: [] },
    },
    'GET api/dictDetail': dictAnswer,
    [`POST api/prevention/orders/${NUMBER}/record`]: { data: { ...inService, version: 3 } },
    ...over,
  };
}

const body = (key: string, i = -1) => JSON.parse(String(api.callsTo(key).at(i)!.data));
const button = async (name: RegExp) => (await screen.findByText(name)).closest('button')!;

describe('服务记录', { timeout: 40_000 }, () => {
  it('sends the record with its hazards (level, deadline as yyyy-mm-dd) and the loaded version', async () => {
    api = mockApi(answers());
    renderRoute(<ServiceRecord />, PATTERN, URL);
    expect(await screen.findByTestId('order-number')).toHaveTextContent(NUMBER);
    // The site photos of the order, through image materials.
    await waitFor(() =>
      expect(api.callsTo('GET api/materials')[0]?.params).toEqual({
        businessType: 'service_order',
        businessId: 32,
      }),
    );
    const user = userEvent.setup();
    await user.click(await button(/添加隐患/));
    const added = await screen.findByTestId('hazard-1');
    await user.type(within(added).getByLabelText('隐患描述'), '配电箱未上锁');
    await user.click(within(added).getByLabelText('隐患等级 2'));
    await user.click((await screen.findAllByTitle('重大')).at(-1)!);
    await user.click(await button(/保存记录/));

    await waitFor(() => expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/record`)).toHaveLength(1));
    expect(body(`POST api/prevention/orders/${NUMBER}/record`)).toEqual({
      version: 2,
      serviceDate: '2026-05-10',
      address: '镇江市润州区南徐大道 88 号',
      findings: '对生产车间进行了隐患排查。',
      hazards: [
        {
          description: '二号车间消防通道堆放物料',
          location: '二号车间',
          level: 'SERIOUS',
          measure: '立即清理',
          deadline: '2026-05-17',
        },
        {
          description: '配电箱未上锁',
          location: null,
          level: 'MAJOR',
          measure: null,
          deadline: dayjs(shanghaiToday()).add(15, 'day').format('YYYY-MM-DD'),
        },
      ],
      participants: [{ name: '王振国', side: 'ORG', position: '高级工程师' }],
    });
    expect(await screen.findByText('服务记录已保存')).toBeInTheDocument();
  });

  it('提交 saves, then submits with the new version and opens the result page', async () => {
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/submit`]: {
          data: { ...inService, version: 4, status: 'SUBMITTED', canRecord: false },
        },
      }),
    );
    const { router } = renderRoute(<ServiceRecord />, PATTERN, URL);
    const user = userEvent.setup();
    await user.click(await button(/^提\s*交$/));
    await user.click(await button(/^确\s*定$/));
    await waitFor(() => expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/submit`)).toHaveLength(1));
    expect(body(`POST api/prevention/orders/${NUMBER}/submit`)).toEqual({ version: 3 });
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        `/piibs/riskControl/prevention/success/${SEQ}?order=${NUMBER}`,
      ),
    );
  });

  it('shows the server 400 under the field it names', async () => {
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/record`]: {
          status: 400,
          data: {
            status: 400,
            message: '服务日期：不能晚于今天',
            errors: [{ field: 'serviceDate', message: '不能晚于今天' }],
          },
        },
      }),
    );
    renderRoute(<ServiceRecord />, PATTERN, URL);
    const user = userEvent.setup();
    await user.click(await button(/保存记录/));
    expect(await screen.findByText('不能晚于今天')).toHaveClass('ant-form-item-explain-error');
  });

  it('refuses a service date outside the policy period at the field, sending nothing', async () => {
    // The policy starts on 2026-06-01; the saved visit of 2026-05-10 lies before it.
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: { data: { ...inService, policyStartDate: '2026-06-01' } },
      }),
    );
    renderRoute(<ServiceRecord />, PATTERN, URL);
    expect(await screen.findByText('保险期间 2026-06-01 至 2026-12-31')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(await button(/保存记录/));
    expect(await screen.findByText('须在保险期间（2026-06-01 至 2026-12-31）内')).toHaveClass(
      'ant-form-item-explain-error',
    );
    expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/record`)).toHaveLength(0);
  });

  it('is read-only once the service is no longer under way', async () => {
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: {
          data: { ...inService, status: 'SUBMITTED', statusLabel: '待企业确认', canRecord: false },
        },
      }),
    );
    renderRoute(<ServiceRecord />, PATTERN, URL);
    expect(await screen.findByText('当前状态不能填写服务记录')).toBeInTheDocument();
    expect(screen.getByText('服务单当前状态：待企业确认')).toBeInTheDocument();
    expect(screen.queryByText('保存记录')).toBeNull();
  });
});

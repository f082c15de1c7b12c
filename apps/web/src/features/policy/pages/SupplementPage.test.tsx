import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { policySales, salesDictAnswer, supplement } from '../test-data.ts';
import SupplementPage from './SupplementPage.tsx';

const PATTERN = '/piibs/policy/marge/:id/:detail';
let api: MockApi;

beforeEach(() => signInAs(['agent'], ['sales:list', 'sales:edit']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)?.data));

async function chooseSource(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByLabelText('业务来源'));
  await user.click(await screen.findByTitle(label));
}

describe('补录资料详情', { timeout: 40_000 }, () => {
  it('sends the commission as micro-percent and shows the server 400 at its field', async () => {
    api = mockApi({
      'GET api/policies/11/sales': { data: policySales() },
      'GET api/dictDetail': salesDictAnswer,
      'PUT api/policies/11/sales': {
        status: 400,
        data: {
          status: 400,
          message: '手续费比例：不能超过该险种的上限 3%',
          errors: [{ field: 'commissionRate', message: '不能超过该险种的上限 3%' }],
        },
      },
    });
    renderRoute(<SupplementPage />, PATTERN, '/piibs/policy/marge/11/false');
    const user = userEvent.setup();
    expect(await screen.findByTestId('marge-policy-number')).toHaveTextContent('PAZX202600000011');
    await user.type(screen.getByLabelText('销售人员姓名'), '王销售');
    await user.type(screen.getByLabelText('销售人员工号'), 'S0001');
    await user.type(screen.getByLabelText('代理人/代理机构名称'), '镇江平安保险代理有限公司');
    await user.type(screen.getByLabelText('代理人执业证号'), 'DL-2026-001');
    await user.type(screen.getByLabelText('手续费比例'), '3.5');
    await chooseSource(user, '专业代理业务');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));

    expect(await screen.findByText('不能超过该险种的上限 3%')).toHaveClass('ant-form-item-explain-error');
    expect(body('PUT api/policies/11/sales')).toMatchObject({
      version: null,
      variant: 'STANDARD',
      salespersonName: '王销售',
      salespersonNo: 'S0001',
      commissionRate: 3_500_000,
      businessSource: 'PROFESSIONAL_AGENCY',
      agentLicenceNo: 'DL-2026-001',
      wageAccountNo: null,
    });
  });

  it('checks the product cap before sending', async () => {
    api = mockApi({
      'GET api/policies/11/sales': {
        data: policySales({
          policy: { ...policySales().policy, commissionCap: 3_000_000, commissionCapText: '3' },
        }),
      },
      'GET api/dictDetail': salesDictAnswer,
    });
    renderRoute(<SupplementPage />, PATTERN, '/piibs/policy/marge/11/false');
    const user = userEvent.setup();
    expect(await screen.findByText('该险种手续费上限 3%')).toBeInTheDocument();
    await user.type(screen.getByLabelText('手续费比例'), '4');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('不能超过该险种的上限 3%')).toHaveClass('ant-form-item-explain-error');
    expect(api.callsTo('PUT api/policies/11/sales')).toHaveLength(0);
  });

  it('?variant=NBNMG opens the migrant-worker fields and sends them with the loaded version', async () => {
    api = mockApi({
      'GET api/policies/11/sales': { data: policySales({ supplement: supplement() }) },
      'GET api/dictDetail': salesDictAnswer,
      'PUT api/policies/11/sales': { data: policySales({ supplement: supplement({ version: 3 }) }) },
    });
    const { router } = renderRoute(<SupplementPage />, PATTERN, '/piibs/policy/marge/11/false?variant=NBNMG');
    const user = userEvent.setup();
    expect(await screen.findByDisplayValue('王销售')).toBeInTheDocument();
    // The saved supplement's own variant wins; switching shows the extra fields.
    expect(screen.queryByLabelText('工资专户账号')).toBeNull();
    await user.click(screen.getByLabelText('农民工工资保证'));
    await user.type(await screen.findByLabelText('项目名称'), '京口区安置房项目');
    await user.type(screen.getByLabelText('农民工人数'), '120');
    await user.type(screen.getByLabelText('主管部门'), '镇江市人社局');
    await user.type(screen.getByLabelText('工资专户开户行'), '工商银行镇江分行');
    await user.type(screen.getByLabelText('工资专户账号'), '6222021100001234567');
    await user.type(screen.getByLabelText('劳动合同备案号'), 'BA2026-0001');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.callsTo('PUT api/policies/11/sales')).toHaveLength(1));
    expect(body('PUT api/policies/11/sales')).toMatchObject({
      version: 2,
      variant: 'NBNMG',
      commissionRate: 2_500_000,
      migrantWorkerCount: 120,
      wageAccountNo: '6222021100001234567',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/policy/marge/NBNMG'));
  });

  it("detail=true is read-only and shows the salesperson's change history", async () => {
    api = mockApi({
      'GET api/policies/11/sales': {
        data: policySales({
          supplement: supplement({ salespersonName: '李销售', salespersonNo: 'S0002' }),
          changes: [
            {
              id: 1,
              oldName: '王销售',
              oldNo: 'S0001',
              newName: '李销售',
              newNo: 'S0002',
              reason: '岗位调整',
              actor: 'uw',
              at: '2026-05-22T02:00:00.000Z',
            },
          ],
        }),
      },
      'GET api/dictDetail': salesDictAnswer,
    });
    renderRoute(<SupplementPage />, PATTERN, '/piibs/policy/marge/11/true');
    expect(await screen.findByDisplayValue('李销售')).toBeDisabled();
    expect(screen.getByText('王销售（S0001） → 李销售（S0002）')).toBeInTheDocument();
    expect(screen.getByText('岗位调整')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
  });
});

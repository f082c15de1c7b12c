import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { customerRow, dictAnswer } from '@/components/customer/test-data.ts';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import ApplicantEdit from './ApplicantEdit.tsx';

const PATTERN = '/piibs/applicant/newUpdate/:id/:detail';
let api: MockApi;

beforeEach(() => signInAs(['underwriter'], ['customer:list', 'customer:add', 'customer:edit']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)?.data));

describe('客户信息', { timeout: 40_000 }, () => {
  it('detail=true shows the customer read-only, with its review status and last opinion', async () => {
    api = mockApi({
      'GET api/customers/7': {
        data: customerRow({
          reviewStatus: 'returned',
          reviewOpinion: '营业执照已过期',
          reviewedAt: '2026-11-21 10:00:00',
        }),
      },
      'GET api/dictDetail': dictAnswer,
    });
    renderRoute(<ApplicantEdit />, PATTERN, '/piibs/applicant/newUpdate/7/true');
    expect(await screen.findByDisplayValue('镇江示范机械有限公司')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('联系电话')).toHaveValue('138****5678');
    expect(screen.getByText('营业执照已过期')).toBeInTheDocument();
    expect(screen.getAllByText('已退回').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '重新提交审核' })).toBeNull();
  });

  it('new: the shared rules speak at the fields; a server 400 is shown at its field', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'POST api/customers': { status: 400, data: { status: 400, message: '详细地址：不能超过 200 个字符' } },
    });
    renderRoute(<ApplicantEdit />, PATTERN, '/piibs/applicant/newUpdate/0/false');
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
        data: { status: 400, message: '联系人：不能超过 30 个字符' },
      },
      'POST api/customers/7/resubmit': { data: customerRow({ reviewStatus: 'pending', version: 4 }) },
    });
    const { router } = renderRoute(<ApplicantEdit />, PATTERN, '/piibs/applicant/newUpdate/7/false');
    const user = userEvent.setup();
    await screen.findByDisplayValue('镇江示范机械有限公司');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('不能超过 30 个字符')).toBeInTheDocument();
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
    renderRoute(<ApplicantEdit />, PATTERN, '/piibs/applicant/newUpdate/7/false');
    const user = userEvent.setup();
    await screen.findByDisplayValue('镇江示范机械有限公司');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('该客户已被他人修改');
    expect(await screen.findByDisplayValue('钱七')).toBeInTheDocument();
  });
});

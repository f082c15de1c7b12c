import { VERIFY_FAILED } from '@piibs/shared/policy';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { verification } from '../test-data.ts';
import VerifyPage from './VerifyPage.tsx';

const render = (code: string) => renderRoute(<VerifyPage />, '/piibs/verify/:code', `/piibs/verify/${code}`);

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('保单验真 (/piibs/verify/:code, public)', { timeout: 30_000 }, () => {
  it('a real code: 保单真实有效 with the masked facts', async () => {
    api = mockApi({ 'GET api/policies/verify/K7M2Q9X4TB8R3N6P': { data: verification() } });
    render('K7M2Q9X4TB8R3N6P');
    expect(await screen.findByText('保单真实有效')).toBeInTheDocument();
    expect(screen.getByTestId('verify-policy-number')).toHaveTextContent('PAZX202600000009');
    expect(screen.getByText('镇江**机械有限公司')).toBeInTheDocument();
    expect(screen.getByText('自 2026-12-01 零时起至 2027-11-30 二十四时止')).toBeInTheDocument();
    expect(screen.getByText('未生效')).toBeInTheDocument();
    expect(screen.queryByText('镇江示范机械有限公司')).toBeNull();
    // the insurer, premium, covers with their limits, the endorsement, the files and their signer
    expect(screen.getByText('示例财产保险股份有限公司')).toBeInTheDocument();
    expect(screen.getByTestId('verify-premium')).toHaveTextContent('¥12,345.67');
    const covers = within(screen.getByTestId('policy-covers'));
    expect(covers.getByText('从业人员伤亡（死亡/伤残）')).toBeInTheDocument();
    expect(covers.getAllByText('¥500,000.00').length).toBeGreaterThan(0);
    expect(within(screen.getByTestId('verify-endorsements')).getByText('加收 ¥500.00')).toBeInTheDocument();
    const docs = within(screen.getByTestId('verify-documents'));
    expect(docs.getByText('电子保单')).toBeInTheDocument();
    expect(docs.getAllByText('示例财产保险股份有限公司 电子签章')).toHaveLength(2);
    expect(
      docs.getByText('58f9cd63e97d70198fcb51bfa886a5e5617fa8c2f0835c24ff25e76df4a20d6d'),
    ).toBeInTheDocument();
  });

  const drop = async (bytes: string) => {
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.setup().upload(input, new File([bytes], 'policy.pdf', { type: 'application/pdf' }));
  };

  it('a dropped file identical to an issued one: 与签发文件一致, naming the file', async () => {
    api = mockApi({ 'GET api/policies/verify/K7M2Q9X4TB8R3N6P': { data: verification() } });
    render('K7M2Q9X4TB8R3N6P');
    await screen.findByText('保单真实有效');
    await drop('%PDF-policy');
    expect(await screen.findByText('与签发文件一致')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('电子保单 PAZX202600000009');
    expect(screen.queryByText('与签发文件不一致')).toBeNull();
  });

  it('a file with one byte changed: 与签发文件不一致', async () => {
    api = mockApi({ 'GET api/policies/verify/K7M2Q9X4TB8R3N6P': { data: verification() } });
    render('K7M2Q9X4TB8R3N6P');
    await screen.findByText('保单真实有效');
    await drop('%PDF-policz');
    expect(await screen.findByText('与签发文件不一致')).toBeInTheDocument();
    expect(screen.queryByText('与签发文件一致')).toBeNull();
  });

  it("a fake code: the server's message, nothing else", async () => {
    api = mockApi({
      'GET api/policies/verify/FAKE0000FAKE0000': {
        status: 404,
        data: { status: 404, message: VERIFY_FAILED },
      },
    });
    render('FAKE0000FAKE0000');
    expect(await screen.findByText('保单验真失败：验证码不存在')).toBeInTheDocument();
    expect(screen.queryByText('保单真实有效')).toBeNull();
  });

  it('too many checks (429): the message and a retry', async () => {
    api = mockApi({
      'GET api/policies/verify/K7M2Q9X4TB8R3N6P': {
        status: 429,
        data: { status: 429, message: '请求过于频繁，请稍后再试' },
      },
    });
    render('K7M2Q9X4TB8R3N6P');
    expect(await screen.findByText('请求过于频繁，请稍后再试')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重\s*试/ })).toBeInTheDocument();
  });
});

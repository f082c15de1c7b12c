import { VERIFY_FAILED } from '@piibs/shared/policy';
import { screen } from '@testing-library/react';
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

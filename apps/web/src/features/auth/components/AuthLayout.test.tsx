import { DEFAULT_SETTINGS } from '@piibs/shared/constants';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ICP_SITE } from '@/components/FilingLinks.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { AuthLayout } from './AuthLayout.tsx';

let api: MockApi;
afterEach(() => api?.restore());

describe('the public sign-in pages carry the filing numbers the administrator set', () => {
  it('shows the footer text and the ICP and public-security numbers, linked to their registries', async () => {
    api = mockApi({
      'GET api/settings/site': {
        data: {
          footerTxt: '© 2026 示例财险',
          caseNumber: '苏ICP备12345678号-1',
          policeNumber: '苏公网安备 32110202000001号',
        },
      },
    });
    render(<AuthLayout subtitle="账号密码登录">表单</AuthLayout>);
    expect(await screen.findByRole('link', { name: '苏ICP备12345678号-1' })).toHaveAttribute(
      'href',
      ICP_SITE,
    );
    expect(screen.getByRole('link', { name: '苏公网安备 32110202000001号' })).toBeInTheDocument();
    expect(screen.getByText('© 2026 示例财险')).toBeInTheDocument();
  });

  it('keeps the default text, quietly, when the settings cannot be read', async () => {
    api = mockApi({});
    render(<AuthLayout>表单</AuthLayout>);
    expect(await screen.findByText(DEFAULT_SETTINGS.footerTxt)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});

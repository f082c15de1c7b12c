import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ICP_SITE, POLICE_SITE } from '@/components/FilingLinks.tsx';
import { Footer } from './Footer.tsx';

function renderWithSite(site: { footerTxt: string; caseNumber: string; policeNumber: string }) {
  const client = new QueryClient();
  client.setQueryData(['site-settings'], site);
  render(
    <QueryClientProvider client={client}>
      <Footer />
    </QueryClientProvider>,
  );
}

describe('footer: footerTxt and the ICP and public-security filing numbers the administrator set', () => {
  it('shows them, each linking to its official filing site', () => {
    renderWithSite({
      footerTxt: '© 2026 示例财险',
      caseNumber: '苏ICP备12345678号-1',
      policeNumber: '苏公网安备 32110202000001号',
    });
    expect(screen.getByText('© 2026 示例财险')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '苏ICP备12345678号-1' })).toHaveAttribute('href', ICP_SITE);
    expect(screen.getByRole('link', { name: '苏公网安备 32110202000001号' })).toHaveAttribute(
      'href',
      `${POLICE_SITE}32110202000001`,
    );
  });

  it('shows no filing links while none is set', () => {
    renderWithSite({ footerTxt: '© 2026 示例财险', caseNumber: '', policeNumber: '' });
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});

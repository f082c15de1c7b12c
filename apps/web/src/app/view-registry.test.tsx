import { VIEW_NAMES } from '@piibs/shared/views';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ViewRoute } from './menu-routes.tsx';
import { normalizeViewName, preloadView, resetViewLoads, resolveView, VIEW_PAGES } from './view-registry.ts';

describe('the view table', () => {
  it('every view name resolves to a page', () => {
    for (const name of VIEW_NAMES) expect(resolveView(name), name).not.toBeNull();
  });

  it("every view name's page loads as a component", { timeout: 120_000 }, async () => {
    const pages = await Promise.all(
      VIEW_NAMES.map(async (name) => [name, await VIEW_PAGES[name]()] as const),
    );
    for (const [name, page] of pages) expect(typeof page.default, name).toBe('function');
  });

  it('the table holds no name the shared list lacks', () => {
    expect(Object.keys(VIEW_PAGES).sort()).toEqual([...VIEW_NAMES].sort());
  });

  it('returns the same component for a name every time (no remounts)', () => {
    expect(resolveView('Dashboard')).toBe(resolveView('Dashboard'));
  });

  it('knows nothing of an unknown name', () => {
    expect(resolveView('nope/Missing')).toBeNull();
    expect(resolveView('Orphan')).toBeNull();
    expect(resolveView('Layout')).toBeNull();
    expect(resolveView('')).toBeNull();
    expect(resolveView('hasOwnProperty')).toBeNull();
  });
});

describe('eladmin-style names', () => {
  it('are normalised: no leading slash, trailing /index or file extension', () => {
    expect(normalizeViewName('/epinsure/stepOne/index')).toBe('epinsure/stepOne');
    expect(normalizeViewName('system/user/index.vue')).toBe('system/user');
    expect(normalizeViewName(' /riskControl/Expert.tsx ')).toBe('riskControl/Expert');
  });

  it('resolve to the same page as the plain name', () => {
    const plain = resolveView('epinsure/InsureList');
    expect(plain).not.toBeNull();
    expect(resolveView('/epinsure/InsureList/index')).toBe(plain);
    expect(resolveView('epinsure/InsureList.vue')).toBe(plain);
    expect(resolveView('/system/Users/index.vue')).toBe(resolveView('system/Users'));
  });
});

describe('unknown view name error page', () => {
  it('shows 页面组件不存在：{name}', () => {
    render(<ViewRoute name="nope/Missing" />);
    expect(screen.getByRole('alert')).toHaveTextContent('页面组件不存在：nope/Missing');
  });

  it('loads a known view lazily', async () => {
    resetViewLoads();
    render(
      <MemoryRouter>
        <ViewRoute name="Dashboard" />
      </MemoryRouter>,
    );
    expect(await screen.findByText('欢迎使用财产保险互联网出单系统')).toBeInTheDocument();
  });

  it('renders a page whose code is already loaded in the same pass, without its loading fallback', async () => {
    resetViewLoads();
    await preloadView('Dashboard');
    render(
      <MemoryRouter>
        <ViewRoute name="Dashboard" />
      </MemoryRouter>,
    );
    // Not findByText: a promise would answer only after a microtask, and the fallback would show first.
    expect(screen.getByText('欢迎使用财产保险互联网出单系统')).toBeInTheDocument();
  });
});

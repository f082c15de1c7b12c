import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ViewRoute } from './menu-routes.tsx';
import { normalizeViewName, resolveView, viewFile } from './view-registry.ts';

describe('view names (naming rule)', () => {
  it("maps 'area/Page' to src/features/area/pages/Page.tsx", () => {
    expect(viewFile('epinsure/InsureList')).toBe('/src/features/epinsure/pages/InsureList.tsx');
  });

  it('accepts eladmin-style names', () => {
    expect(normalizeViewName('/epinsure/stepOne/index')).toBe('epinsure/stepOne');
    expect(normalizeViewName('system/user/index.vue')).toBe('system/user');
    expect(viewFile('/riskControl/expert/index')).toBe('/src/features/riskControl/pages/expert.tsx');
  });

  it('a name without an area maps to no file', () => {
    expect(viewFile('Orphan')).toBeUndefined();
  });
});

describe('resolveView', () => {
  it('knows the dashboard', () => {
    expect(resolveView('Dashboard')).not.toBeNull();
  });

  it('knows the error pages', () => {
    expect(resolveView('404')).not.toBeNull();
    expect(resolveView('401')).not.toBeNull();
  });

  it('returns the same component for a name every time (no remounts)', () => {
    expect(resolveView('Dashboard')).toBe(resolveView('Dashboard'));
  });

  it('knows nothing of an unknown name', () => {
    expect(resolveView('nope/Missing')).toBeNull();
    expect(resolveView('Orphan')).toBeNull();
  });
});

describe('unknown view name error page', () => {
  it('shows 页面组件不存在：{name}', () => {
    render(<ViewRoute name="nope/Missing" />);
    expect(screen.getByRole('alert')).toHaveTextContent('页面组件不存在：nope/Missing');
  });

  it('loads a known view lazily', async () => {
    render(
      <MemoryRouter>
        <ViewRoute name="Dashboard" />
      </MemoryRouter>,
    );
    expect(await screen.findByText('欢迎使用财产保险互联网出单系统')).toBeInTheDocument();
  });
});

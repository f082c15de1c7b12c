import type { MenuRoute } from '@piibs/shared/menu';
import { describe, expect, it } from 'vitest';
import { redirectTarget } from '@/app/shell-routes.ts';
import { normalizeMenus } from './permission.ts';

const directory = (redirect: string | undefined): MenuRoute => ({
  path: '/piibs/riskControl',
  component: 'Layout',
  ...(redirect === undefined ? {} : { redirect }),
  alwaysShow: true,
  meta: { title: '风险管控' },
  children: [
    {
      path: 'prevention/index/:seqNo',
      component: 'riskControl/Prevention',
      hidden: true,
      meta: { title: '事故预防' },
    },
    { path: 'prevention/serviceList', component: 'riskControl/ServiceList', meta: { title: '我的服务单' } },
  ],
});

describe('normalizeMenus: the no-redirect marker', () => {
  // The server sends eladmin's 'noredirect'; vue-element-admin's menus say 'noRedirect'.
  it.each(['noredirect', 'noRedirect'])('%s marks the directory, and is not a redirect path', (marker) => {
    const [node] = normalizeMenus([directory(marker)]);
    expect(node).toMatchObject({ noRedirect: true, redirect: undefined });
    // The directory still leads to its first page without params.
    expect(redirectTarget(node!)).toBe('/piibs/riskControl/prevention/serviceList');
  });

  it('a real redirect is kept', () => {
    const [node] = normalizeMenus([directory('/piibs/riskControl/prevention/serviceList')]);
    expect(node).toMatchObject({ noRedirect: false, redirect: '/piibs/riskControl/prevention/serviceList' });
  });

  it('no redirect at all: neither', () => {
    const [node] = normalizeMenus([directory(undefined)]);
    expect(node).toMatchObject({ noRedirect: false, redirect: undefined });
  });
});

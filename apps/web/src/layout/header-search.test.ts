import { describe, expect, it } from 'vitest';
import { createRouteSearch, FUSE_OPTIONS, type SearchEntry, truncateQuery } from './header-search.ts';

const entries: SearchEntry[] = [
  { title: ['系统管理', '用户管理'], path: '/piibs/system/user' },
  { title: ['投保管理', '投保单列表'], path: '/piibs/epinsure/insureList' },
  { title: ['风险管理', '我的服务单'], path: '/piibs/riskControl/prevention/serviceList' },
  { title: ['产品管理', '险种'], path: '/piibs/product/risk' },
];

describe('header search weights/threshold', () => {
  it('uses threshold 0.4 with title weighted 0.7 and path 0.3', () => {
    expect(FUSE_OPTIONS.threshold).toBe(0.4);
    expect(FUSE_OPTIONS.keys).toEqual([
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ]);
  });

  it('matches titles and paths', () => {
    const search = createRouteSearch(entries);
    expect(search('用户').map((e) => e.path)).toEqual(['/piibs/system/user']);
    expect(search('insureList').map((e) => e.path)).toEqual(['/piibs/epinsure/insureList']);
  });

  it('ranks a title match above a path match', () => {
    const search = createRouteSearch([
      { title: ['险种'], path: '/piibs/risk' },
      { title: ['risk 风险'], path: '/piibs/other' },
    ]);
    expect(search('risk')[0]?.path).toBe('/piibs/other');
  });

  it('leaves out what is too far off (threshold)', () => {
    expect(createRouteSearch(entries)('zzzzqqq')).toEqual([]);
  });

  it('an empty query finds nothing', () => {
    expect(createRouteSearch(entries)('   ')).toEqual([]);
  });

  it('cuts the query to 32 characters (maximum pattern length)', () => {
    const long = `insureList${'x'.repeat(40)}`;
    expect(truncateQuery(long)).toHaveLength(32);
    expect(createRouteSearch(entries)(long)).toEqual(createRouteSearch(entries)(long.slice(0, 32)));
  });
});

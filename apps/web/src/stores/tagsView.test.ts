import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_CACHED_VIEWS, type TagView, useTagsViewStore } from './tagsView.ts';

function view(path: string, extra: Partial<TagView> = {}): TagView {
  const [pathname = path, search = ''] = path.split(/(?=\?)/);
  return {
    key: pathname,
    fullPath: path,
    title: pathname,
    affix: false,
    noCache: false,
    location: { pathname, search, hash: '', state: null, key: path },
    ...extra,
  };
}

const store = () => useTagsViewStore.getState();
const keys = () => store().visitedViews.map((v) => v.key);

beforeEach(() => store().reset());

describe('tags add on navigation', () => {
  it('adds a visited view and caches it', () => {
    store().addView(view('/piibs/a'));
    expect(keys()).toEqual(['/piibs/a']);
    expect(store().cachedViews).toEqual(['/piibs/a']);
  });

  it('revisiting a path updates its tab in place (a query change does not open another tab)', () => {
    store().addView(view('/piibs/list'));
    store().addView(view('/piibs/b'));
    store().addView(view('/piibs/list?page=2'));
    expect(keys()).toEqual(['/piibs/list', '/piibs/b']);
    expect(store().visitedViews[0]?.fullPath).toBe('/piibs/list?page=2');
    expect(store().visitedViews[0]?.location.search).toBe('?page=2');
  });

  it('per-full-path tabs: two detail pages of one route are two tabs', () => {
    store().addView(view('/piibs/insured/view/1/A'));
    store().addView(view('/piibs/insured/view/2/A'));
    expect(keys()).toEqual(['/piibs/insured/view/1/A', '/piibs/insured/view/2/A']);
    expect(store().cachedViews).toHaveLength(2);
  });

  it('noCache views are tabs but are not cached', () => {
    store().addView(view('/piibs/dashboard', { noCache: true }));
    expect(keys()).toEqual(['/piibs/dashboard']);
    expect(store().cachedViews).toEqual([]);
  });

  it(`keeps at most ${MAX_CACHED_VIEWS} cached views, dropping the least recently shown`, () => {
    for (let i = 0; i < MAX_CACHED_VIEWS; i++) store().addView(view(`/piibs/p${i}`));
    store().addView(view('/piibs/p0')); // shown again: now the most recent
    store().addView(view('/piibs/new'));
    expect(store().cachedViews).toHaveLength(MAX_CACHED_VIEWS);
    expect(store().cachedViews).not.toContain('/piibs/p1');
    expect(store().cachedViews).toContain('/piibs/p0');
    expect(store().cachedViews.at(-1)).toBe('/piibs/new');
    expect(keys()).toContain('/piibs/p1'); // the tab stays; only its kept page goes
  });
});

describe('tags close / close others / close all', () => {
  beforeEach(() => {
    store().addView(view('/piibs/dashboard', { affix: true, noCache: true }));
    store().addView(view('/piibs/a'));
    store().addView(view('/piibs/b'));
    store().addView(view('/piibs/c'));
  });

  it('close removes the tab and its cached page', () => {
    store().delView('/piibs/b');
    expect(keys()).toEqual(['/piibs/dashboard', '/piibs/a', '/piibs/c']);
    expect(store().cachedViews).toEqual(['/piibs/a', '/piibs/c']);
  });

  it('close others keeps the chosen tab and the affixed ones', () => {
    store().delOthersViews('/piibs/b');
    expect(keys()).toEqual(['/piibs/dashboard', '/piibs/b']);
    expect(store().cachedViews).toEqual(['/piibs/b']);
  });

  it('close all keeps only the affixed tabs', () => {
    store().delAllViews();
    expect(keys()).toEqual(['/piibs/dashboard']);
    expect(store().cachedViews).toEqual([]);
  });

  it('affixed tabs survive close, close others and close all', () => {
    store().delView('/piibs/dashboard');
    expect(keys()).toContain('/piibs/dashboard');
    store().delOthersViews('/piibs/a');
    expect(keys()).toContain('/piibs/dashboard');
    store().delAllViews();
    expect(keys()).toEqual(['/piibs/dashboard']);
  });
});

describe('reduced shell keeps the last tab', () => {
  it('refuses to close the only tab when keepLast is set', () => {
    store().addView(view('/piibs/applicant/newUpdate/1/0'));
    store().delView('/piibs/applicant/newUpdate/1/0', { keepLast: true });
    expect(keys()).toEqual(['/piibs/applicant/newUpdate/1/0']);
    store().addView(view('/piibs/insured/stepOne/1/A'));
    store().delView('/piibs/applicant/newUpdate/1/0', { keepLast: true });
    expect(keys()).toEqual(['/piibs/insured/stepOne/1/A']);
  });

  it('close all can keep the current tab', () => {
    store().addView(view('/piibs/a'));
    store().addView(view('/piibs/b'));
    store().delAllViews('/piibs/b');
    expect(keys()).toEqual(['/piibs/b']);
  });
});

describe('refresh', () => {
  it('bumps the view stamp, which remounts the page, and keeps the tab', () => {
    store().addView(view('/piibs/a'));
    store().refreshView('/piibs/a');
    store().refreshView('/piibs/a');
    expect(store().refreshStamps['/piibs/a']).toBe(2);
    expect(keys()).toEqual(['/piibs/a']);
  });
});

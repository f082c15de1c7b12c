import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { create } from 'zustand';

/** The parts of a router location a tab keeps, so a hidden tab renders with its own URL. */
export interface SavedLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export interface TagView {
  /**
   * The tab's identity: the resolved path, route params included, so two detail pages of one route
   * (`/x/view/1`, `/x/view/2`) are two tabs with two states. The query string is not part of it: list
   * pages keep their filters there, and changing a filter updates the tab instead of opening another.
   */
  key: string;
  /** Path with query and hash: where clicking the tab goes. */
  fullPath: string;
  title: string;
  affix: boolean;
  noCache: boolean;
  location: SavedLocation;
}

/** Kept-alive pages beyond this are dropped, least recently shown first. */
export const MAX_CACHED_VIEWS = 10;

interface TagsViewState {
  visitedViews: TagView[];
  /** Keys of the views kept alive, least recently shown first. */
  cachedViews: string[];
  /** Bumped by a refresh; part of the page's React key, so the page remounts. */
  refreshStamps: Record<string, number>;
  /**
   * What a tab shows after its page's title, by view key: the record it holds (a customer's name, a business
   * number), so two tabs of one view for different records read differently.
   */
  recordTitles: Record<string, string>;
  setRecordTitle(key: string, text: string | null): void;
  /** Records a navigation: adds or updates the tab and keeps the page alive unless it is noCache. */
  addView(view: TagView): void;
  addVisitedView(view: TagView): void;
  addCachedView(view: TagView): void;
  delCachedView(key: string): void;
  /** Closes a tab; affixed tabs stay. With `keepLast`, the last tab stays too (reduced shell). */
  delView(key: string, options?: { keepLast?: boolean }): void;
  /** Closes every tab but affixed ones and `key`. */
  delOthersViews(key: string): void;
  /** Closes every tab but affixed ones (and `keep`, for users who may not close their last tab). */
  delAllViews(keep?: string): void;
  /** Drops the kept-alive page: the new stamp remounts it with fresh state. */
  refreshView(key: string): void;
  reset(): void;
}

export const useTagsViewStore = create<TagsViewState>((set, get) => ({
  visitedViews: [],
  cachedViews: [],
  refreshStamps: {},
  recordTitles: {},
  setRecordTitle(key, text) {
    const { recordTitles } = get();
    if ((recordTitles[key] ?? null) === text) return;
    const { [key]: _, ...rest } = recordTitles;
    set({ recordTitles: text ? { ...rest, [key]: text } : rest });
  },
  addView(view) {
    get().addVisitedView(view);
    get().addCachedView(view);
  },
  addVisitedView(view) {
    const { visitedViews } = get();
    const index = visitedViews.findIndex((v) => v.key === view.key);
    if (index === -1) {
      set({ visitedViews: [...visitedViews, view] });
      return;
    }
    const current = visitedViews[index]!;
    // Keep the tab's place and affix flag; take the newest URL and title.
    const updated = { ...view, affix: current.affix || view.affix };
    set({ visitedViews: visitedViews.map((v, i) => (i === index ? updated : v)) });
  },
  addCachedView(view) {
    if (view.noCache) return;
    const rest = get().cachedViews.filter((key) => key !== view.key);
    const cachedViews = [...rest, view.key];
    set({ cachedViews: cachedViews.slice(Math.max(0, cachedViews.length - MAX_CACHED_VIEWS)) });
  },
  delCachedView(key) {
    set({ cachedViews: get().cachedViews.filter((k) => k !== key) });
  },
  delView(key, options) {
    const { visitedViews, cachedViews } = get();
    const view = visitedViews.find((v) => v.key === key);
    if (!view || view.affix) return;
    if (options?.keepLast && visitedViews.length <= 1) return;
    set({
      visitedViews: visitedViews.filter((v) => v.key !== key),
      cachedViews: cachedViews.filter((k) => k !== key),
    });
  },
  delOthersViews(key) {
    const visitedViews = get().visitedViews.filter((v) => v.affix || v.key === key);
    const kept = new Set(visitedViews.map((v) => v.key));
    set({ visitedViews, cachedViews: get().cachedViews.filter((k) => kept.has(k)) });
  },
  delAllViews(keep) {
    const visitedViews = get().visitedViews.filter((v) => v.affix || v.key === keep);
    const kept = new Set(visitedViews.map((v) => v.key));
    set({ visitedViews, cachedViews: get().cachedViews.filter((k) => kept.has(k)) });
  },
  refreshView(key) {
    const { refreshStamps } = get();
    set({ refreshStamps: { ...refreshStamps, [key]: (refreshStamps[key] ?? 0) + 1 } });
  },
  reset: () => set({ visitedViews: [], cachedViews: [], refreshStamps: {}, recordTitles: {} }),
}));

/** Names the record the current page holds on its tab (`text` null or empty: the page's title alone). */
export function useTabRecord(text: string | null | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    useTagsViewStore.getState().setRecordTitle(pathname, text || null);
  }, [pathname, text]);
}

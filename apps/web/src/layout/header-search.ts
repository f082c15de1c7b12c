import { SEARCH_FUSE } from '@piibs/shared/constants';
import Fuse, { type IFuseOptions } from 'fuse.js';

/** A page the header search can jump to: its title with its directories' titles, and its path. */
export interface SearchEntry {
  title: string[];
  path: string;
}

/** Spec §9: threshold 0.4, title weight 0.7, path weight 0.3. */
export const FUSE_OPTIONS: IFuseOptions<SearchEntry> = {
  shouldSort: true,
  threshold: SEARCH_FUSE.threshold,
  location: 0,
  distance: 100,
  minMatchCharLength: 1,
  keys: SEARCH_FUSE.keys,
};

/** Spec §9 maximum pattern length 32: Fuse 7 dropped the option, so the query is cut here. */
export function truncateQuery(query: string): string {
  return query.trim().slice(0, SEARCH_FUSE.maxPatternLength);
}

export function createRouteSearch(entries: readonly SearchEntry[]): (query: string) => SearchEntry[] {
  const fuse = new Fuse(entries, FUSE_OPTIONS);
  return (query) => {
    const pattern = truncateQuery(query);
    return pattern ? fuse.search(pattern).map((result) => result.item) : [];
  };
}

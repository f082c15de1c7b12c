// Application constants from the product spec, plus the two formatting helpers that depend on them.

/** Cookie / storage key of the auth token. The misspelling is the spec's and existing clients rely on it. */
export const TOKEN_KEY = 'EL-ADMIN-TOEKN';
export const HTTP_TIMEOUT_MS = 1_200_000;
export const TOKEN_COOKIE_EXPIRES_DAYS = 1;
export const PASSWORD_COOKIE_EXPIRES_DAYS = 1;
export const SIDEBAR_WIDTH_PX = 205;
export const MOBILE_BREAKPOINT_PX = 992;

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
// One reading of the spec says Medium; we pick small, the denser layout of the two.
export const DEFAULT_SIZE: Size = 'small';

export const PREDEFINED_THEME_COLORS: readonly string[] = Object.freeze([
  '#409EFF',
  '#1890ff',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959CD',
  '#f5222d',
]);
export const DEFAULT_THEME_COLOR = '#1890ff';

/** The longest password accepted (ASVS 5.0 V6.2.9 asks for at least 64). The other rules: ./password.ts. */
export const PASSWORD_MAX_LENGTH = 64;

export const ERROR_NOTICE_MS = 5000;
export const DICT_PAGE_SIZE = 9999;

export type SearchFuseOptions = {
  readonly threshold: number;
  readonly maxPatternLength: number;
  // Typed as a mutable array so it can be passed straight to Fuse's options; frozen at runtime instead.
  readonly keys: { readonly name: string; readonly weight: number }[];
};
/** Fuse.js options for the menu search box. */
export const SEARCH_FUSE: SearchFuseOptions = Object.freeze({
  threshold: 0.4,
  maxPatternLength: 32,
  keys: Object.freeze([
    Object.freeze({ name: 'title', weight: 0.7 }),
    Object.freeze({ name: 'path', weight: 0.3 }),
  ]) as SearchFuseOptions['keys'],
});

export const TAG_CONTEXT_MENU_WIDTH_PX = 105;
export const DATE_FORMAT = '{y}-{m}-{d} {h}:{i}:{s}';
export const ROLE_SYSTEM_DEFAULT = 'ROLE_SYSTEM_DEFAULT';
/** What a user without roles is called where roles are named. */
export const ROLE_SYSTEM_DEFAULT_NAME = '普通用户';
/** Role id whose users get the reduced application shell. */
export const REDUCED_SHELL_ROLE = '17';
/** Local-storage key of the CA marker. */
export const CA_MARKER_KEY = 'CA';
export const SIDEBAR_STATUS_KEY = 'sidebarStatus';
export const SIZE_KEY = 'size';
export const SITE_TITLE = '财产保险互联网出单系统';

export type Settings = {
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  uniqueOpened: boolean;
  showFooter: boolean;
  footerTxt: string;
  caseNumber: string;
  theme: string;
};
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  showSettings: true,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  uniqueOpened: true,
  showFooter: true,
  footerTxt: '© 2026 财产保险互联网出单系统',
  caseNumber: '',
  theme: DEFAULT_THEME_COLOR,
});

// Times are shown in China Standard Time whatever zone the browser or server runs in.
const TIME_ZONE = 'Asia/Shanghai';
const WEEKDAYS = '日一二三四五六';

// China has kept UTC+8 all year since its last summer time ended on 1991-09-15, so an instant from 1992 on is
// read with a fixed offset; only older ones ask Intl, whose formatter for a named zone takes tens of milliseconds
// to create (made at first need, not while the app's first screen loads).
const FIXED_OFFSET_FROM = Date.UTC(1992, 0, 1);
const UTC_PLUS_8 = 8 * 3_600_000;
let historicalClock: Intl.DateTimeFormat | undefined;

type WallClock = { y: number; m: number; d: number; h: number; i: number; s: number };

function toWallClock(ms: number): WallClock {
  if (ms >= FIXED_OFFSET_FROM) {
    const t = new Date(ms + UTC_PLUS_8);
    return {
      y: t.getUTCFullYear(),
      m: t.getUTCMonth() + 1,
      d: t.getUTCDate(),
      h: t.getUTCHours(),
      i: t.getUTCMinutes(),
      s: t.getUTCSeconds(),
    };
  }
  historicalClock ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const parts: Record<string, number> = {};
  for (const part of historicalClock.formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    y: parts.year ?? 0,
    m: parts.month ?? 0,
    d: parts.day ?? 0,
    h: parts.hour ?? 0,
    i: parts.minute ?? 0,
    s: parts.second ?? 0,
  };
}

// Zone-less date-time strings ('2024-01-02 03:04:05') are Shanghai wall-clock times; letting Date parse
// them would use the machine's zone and shift the result on a UTC server.
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

function shanghaiToEpoch(w: WallClock, ms: number): number {
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.h, w.i, w.s, ms);
  // Offset lookup twice, so historical DST transitions (China observed DST 1986-1991) resolve correctly.
  const offsetAt = (t: number): number => {
    const c = toWallClock(t);
    return Date.UTC(c.y, c.m - 1, c.d, c.h, c.i, c.s) - (t - (((t % 1000) + 1000) % 1000));
  };
  const guess = asUtc - offsetAt(asUtc);
  return asUtc - offsetAt(guess);
}

function toEpoch(date: Date | number | string): number {
  if (date instanceof Date) return date.getTime();
  if (typeof date === 'number') return date;
  if (/^\d+$/.test(date)) return Number(date);
  const local = LOCAL_DATE_TIME.exec(date);
  if (local) {
    const [, y, m, d, h, i, s, frac] = local;
    return shanghaiToEpoch(
      { y: Number(y), m: Number(m), d: Number(d), h: Number(h ?? 0), i: Number(i ?? 0), s: Number(s ?? 0) },
      Number((frac ?? '').padEnd(3, '0')),
    );
  }
  return Date.parse(date);
}

/**
 * Formats an instant in Asia/Shanghai time. Placeholders: {y} {m} {d} {h} {i} {s} (zero-padded)
 * and {a} (weekday 日一二三四五六). Numbers and digit strings are epoch milliseconds.
 * Returns '' for an invalid date so table cells render blank instead of 'NaN'.
 */
export function formatTime(date: Date | number | string, pattern: string = DATE_FORMAT): string {
  const ms = toEpoch(date);
  if (!Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) return '';
  const w = toWallClock(ms);
  const weekday = new Date(Date.UTC(w.y, w.m - 1, w.d)).getUTCDay();
  return pattern.replace(/\{([ymdhisa])\}/g, (_match, key: string) => {
    switch (key) {
      case 'y':
        return String(w.y).padStart(4, '0');
      case 'a':
        return WEEKDAYS.charAt(weekday);
      default:
        return String(w[key as Exclude<keyof WallClock, 'y'>]).padStart(2, '0');
    }
  });
}

/** Spec: "Downloaded file name: timestamp-name.ext" (timestamp in epoch milliseconds). */
export function downloadFileName(name: string, ext: string, now: number = Date.now()): string {
  return `${now}-${name}.${ext.replace(/^\./, '')}`;
}

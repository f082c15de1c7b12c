import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  DEFAULT_SIZE,
  DEFAULT_THEME_COLOR,
  downloadFileName,
  formatTime,
  PREDEFINED_THEME_COLORS,
  SEARCH_FUSE,
  SIZES,
  TOKEN_KEY,
} from './constants.ts';
import { isUscc } from './uscc.ts';
import {
  type FieldRule,
  isChinese,
  isEmail,
  isExternal,
  isHeadcount,
  isIP,
  isMobile,
  isPercent0To100,
  isPercent1To100,
  isPhone,
  isTaxNumber,
  MESSAGES,
  rules,
  type ValidatorName,
  zfield,
} from './validators.ts';

/** The rule's rejection message, or undefined when it resolves. */
async function ruleError(rule: FieldRule, value: unknown): Promise<string | undefined> {
  try {
    await rule.validator({}, value);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
}

/** The zod issue messages, or undefined when parsing succeeds. */
function zodErrors(name: ValidatorName, value: unknown): string[] | undefined {
  const result = zfield[name].safeParse(value);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message);
}

const digits = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...'0123456789'.split('')), { minLength: min, maxLength: max })
    .map((d) => d.join(''));

type Table = {
  name: ValidatorName;
  spec: string;
  test: (value: string) => boolean;
  emptyAllowed: boolean;
  valid: string[];
  invalid: string[];
};

const TABLES: Table[] = [
  {
    name: 'external',
    spec: 'spec §5 external link: matches http, https, mailto or tel',
    test: isExternal,
    emptyAllowed: false,
    valid: ['https://example.com', 'http://a', 'mailto:a@b.cn', 'tel:10086'],
    invalid: [
      'ftp://example.com',
      '//example.com',
      'www.example.com',
      '/dashboard',
      'javascript:alert(1)',
      ' https://x',
    ],
  },
  {
    name: 'email',
    spec: 'spec §5 email: must match the usual format',
    test: isEmail,
    emptyAllowed: false,
    valid: ['user@example.com', 'first.last+tag@mail.example.com.cn', 'a_b-c@sub-domain.io'],
    invalid: [
      'plain',
      'a@b',
      '@example.com',
      'a@.com',
      'a..b@example.com',
      '.a@example.com',
      'a@example.c',
      'a b@example.com',
      'a@-example.com',
    ],
  },
  {
    name: 'mobile',
    spec: 'spec §5 mobile number: 11 digits starting with 1',
    test: isMobile,
    emptyAllowed: false,
    valid: ['13800138000', '19912345678', '10000000000'],
    invalid: ['1380013800', '138001380000', '23800138000', '1380013800a', '+8613800138000', '138 0013 8000'],
  },
  {
    name: 'ip',
    spec: 'spec §5 IP address: four octets of 0-255, message 请输入正确的IP地址, empty allowed',
    test: isIP,
    emptyAllowed: true,
    valid: ['0.0.0.0', '255.255.255.255', '192.168.1.1', '10.0.0.254'],
    invalid: [
      '256.1.1.1',
      '1.2.3.256',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.-1',
      'a.b.c.d',
      '1.2.3.4 ',
      '1..2.3',
    ],
  },
  {
    name: 'phone',
    spec: 'spec §5 phone: landline 0xx-7/8 digits, xxx-xxx-xxxx or mobile 1[3-9]+9 digits, message 请输入正确的电话号码或者固话号码, empty allowed',
    test: isPhone,
    emptyAllowed: true,
    valid: [
      '010-12345678',
      '021-1234567',
      '0755-1234567',
      '0755-12345678',
      '400-820-8820',
      '13912345678',
      '19912345678',
    ],
    invalid: [
      '12912345678',
      '1391234567',
      '010-123456',
      '010-123456789',
      '10-12345678',
      '01012345678',
      '00755-1234567',
      '400-8208820',
      '(010)12345678',
    ],
  },
  {
    name: 'chinese',
    spec: 'spec §5 Chinese characters: one or more CJK Unified Ideographs',
    test: isChinese,
    emptyAllowed: false,
    valid: ['中文', '张三', '龘', '一'],
    // U+20000 lies in CJK Extension B, outside the block the spec names.
    invalid: ['abc', '中文a', '中 文', '，', '😀', '\u{20000}'],
  },
  {
    name: 'taxNumber',
    spec: 'spec §5 tax number: 3 letters + 12 digits, 18 digits, or a valid USCC, message 请输入正确的税号',
    test: isTaxNumber,
    emptyAllowed: false,
    valid: [
      'ABC123456789012',
      'abc123456789012',
      '123456789012345678',
      '91350100M000100Y43',
      '91440300708461136T',
    ],
    invalid: [
      'AB1234567890123',
      'ABCD12345678901',
      'ABC12345678901',
      '12345678901234567',
      '1234567890123456789',
      '91350100M000100Y42',
      'ABC-23456789012',
    ],
  },
  {
    name: 'uscc',
    spec: 'GB 32100 unified social credit code, message 请输入正确的统一社会信用代码',
    test: isUscc,
    emptyAllowed: false,
    valid: ['91350100M000100Y43', '91440300708461136T'],
    invalid: ['91350100M000100Y42', '91350100m000100Y43', 'ABC123456789012', '91350100M000100Y4'],
  },
  {
    name: 'percent1To100',
    spec: 'spec §5 percentage 1-100 with at most six decimals (not zero), message 请输入1-100且最多六位小数',
    test: isPercent1To100,
    emptyAllowed: false,
    valid: ['0.5', '1', '100', '99.123456', '0.000001', '100.000000', '50.5'],
    invalid: [
      '0',
      '0.000000',
      '100.000001',
      '1.1234567',
      '-1',
      'abc',
      '101',
      '1e2',
      '.5',
      '5.',
      '01',
      '+5',
      ' 5',
    ],
  },
  {
    name: 'percent0To100',
    spec: 'spec §5 percentage 0-100 with at most six decimals, message 请输入0-100且最多六位小数',
    test: isPercent0To100,
    emptyAllowed: false,
    valid: ['0', '100', '0.000000', '99.999999', '100.000000', '12.5'],
    invalid: ['100.1', '100.000001', '1.1234567', '-0.1', '101', 'abc', '1e1', '00', '.5'],
  },
  {
    name: 'headcount',
    spec: 'spec §5 unit headcount: integer, at least 0, below 1,000,000, message 请输入正确的单位总人数',
    test: isHeadcount,
    emptyAllowed: false,
    valid: ['0', '1', '120', '999999'],
    invalid: ['1000000', '-1', '1.5', 'abc', '01', '1e3', ' 1', '9999999'],
  },
];

describe('spec §5 messages: exact Chinese texts, frozen', () => {
  it('quotes the spec word for word where it gives a message', () => {
    expect(MESSAGES.ip).toBe('请输入正确的IP地址');
    expect(MESSAGES.phone).toBe('请输入正确的电话号码或者固话号码');
    expect(MESSAGES.taxNumber).toBe('请输入正确的税号');
    expect(MESSAGES.percent1To100).toBe('请输入1-100且最多六位小数');
    expect(MESSAGES.percent0To100).toBe('请输入0-100且最多六位小数');
    expect(MESSAGES.headcount).toBe('请输入正确的单位总人数');
  });

  it('uses the chosen texts for the validators the spec leaves unworded', () => {
    expect(MESSAGES.external).toBe('请输入正确的链接地址');
    expect(MESSAGES.email).toBe('请输入正确的邮箱地址');
    expect(MESSAGES.mobile).toBe('请输入正确的11位手机号码');
    expect(MESSAGES.chinese).toBe('请输入中文');
    expect(MESSAGES.uscc).toBe('请输入正确的统一社会信用代码');
  });

  it('is frozen and every validator has a message, an antd rule and a zod schema', () => {
    expect(Object.isFrozen(MESSAGES)).toBe(true);
    expect(Object.keys(rules).sort()).toEqual(Object.keys(MESSAGES).sort());
    expect(Object.keys(zfield).sort()).toEqual(Object.keys(MESSAGES).sort());
  });
});

for (const table of TABLES) {
  describe(table.spec, () => {
    const message = MESSAGES[table.name];

    it.each(table.valid)('accepts %j in the predicate, the antd rule and the zod schema', async (value) => {
      expect(table.test(value)).toBe(true);
      expect(await ruleError(rules[table.name], value)).toBeUndefined();
      expect(zodErrors(table.name, value)).toBeUndefined();
    });

    it.each(table.invalid)(`rejects %j with ${message}`, async (value) => {
      expect(table.test(value)).toBe(false);
      expect(await ruleError(rules[table.name], value)).toBe(message);
      expect(zodErrors(table.name, value)).toEqual([message]);
    });

    it(`empty value: predicate ${table.emptyAllowed ? 'allows' : 'rejects'} '', the antd rule always defers to required`, async () => {
      expect(table.test('')).toBe(table.emptyAllowed);
      expect(zodErrors(table.name, '')).toEqual(table.emptyAllowed ? undefined : [message]);
      for (const empty of [undefined, null, '']) {
        expect(await ruleError(rules[table.name], empty)).toBeUndefined();
      }
    });

    it('property: the antd rule and the zod schema agree with the predicate on any non-empty string', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1 }), async (value) => {
          const valid = table.test(value);
          expect(await ruleError(rules[table.name], value)).toBe(valid ? undefined : message);
          expect(zodErrors(table.name, value)).toEqual(valid ? undefined : [message]);
        }),
      );
    });
  });
}

describe('antd rules: InputNumber values arrive as numbers and are checked as String(value)', () => {
  it.each([
    ['percent0To100', 0, undefined],
    ['percent0To100', 100, undefined],
    ['percent0To100', 100.5, MESSAGES.percent0To100],
    ['percent1To100', 0, MESSAGES.percent1To100],
    ['percent1To100', 0.000001, undefined],
    ['percent1To100', 1e-7, MESSAGES.percent1To100],
    ['headcount', 5, undefined],
    ['headcount', 999999, undefined],
    ['headcount', 1000000, MESSAGES.headcount],
    ['headcount', 1.5, MESSAGES.headcount],
    ['mobile', 13800138000, undefined],
  ] as const)('rules.%s with number %d → %s', async (name, value, expected) => {
    expect(await ruleError(rules[name], value)).toBe(expected);
  });
});

describe('spec §5 unit headcount in zod: accepts a number or a string and outputs the number', () => {
  it('parses 5 and "5" to 5', () => {
    expect(zfield.headcount.parse(5)).toBe(5);
    expect(zfield.headcount.parse('999999')).toBe(999999);
  });

  it.each([1000000, '1000000', -1, 1.5, '1.5'])('rejects %j with 请输入正确的单位总人数', (value) => {
    expect(zodErrors('headcount', value)).toEqual(['请输入正确的单位总人数']);
  });

  it('rejects non-numeric types instead of coercing them', () => {
    expect(zfield.headcount.safeParse(true).success).toBe(false);
    expect(zfield.headcount.safeParse(null).success).toBe(false);
    expect(zfield.headcount.safeParse(Number.NaN).success).toBe(false);
  });
});

describe('spec §5 boundaries (property-based)', () => {
  it('IP: every octet 0-255 passes, any octet 256-999 fails', () => {
    expect(isIP('255.255.255.255')).toBe(true);
    expect(isIP('255.255.255.256')).toBe(false);
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(fc.tuple(octet, octet, octet, octet), (octets) => isIP(octets.join('.'))));
    fc.assert(
      fc.property(
        fc.tuple(octet, octet, octet, octet),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 256, max: 999 }),
        (octets, index, bad) => !isIP(octets.map((o, i) => (i === index ? bad : o)).join('.')),
      ),
    );
  });

  // Bias the generators towards the exact boundaries 0 and 100 and all-zero fractions.
  const boundaryWhole = fc.oneof(fc.constantFrom(0, 100), fc.integer({ min: 0, max: 100 }));
  const fractionUpTo6 = fc.oneof(
    digits(1, 6),
    fc.integer({ min: 1, max: 6 }).map((n) => '0'.repeat(n)),
  );

  it('percentages: 0 and 100 inclusive for 0-100, exclusive of 0 for 1-100, up to six decimals', () => {
    fc.assert(
      fc.property(boundaryWhole, fc.option(fractionUpTo6), (whole, fraction) => {
        const value = fraction === null ? String(whole) : `${whole}.${fraction}`;
        const fractionIsZero = fraction === null || /^0+$/.test(fraction);
        const atMost100 = whole < 100 || fractionIsZero;
        expect(isPercent0To100(value)).toBe(atMost100);
        expect(isPercent1To100(value)).toBe(atMost100 && !(whole === 0 && fractionIsZero));
      }),
    );
  });

  it('percentages: seven or more decimals always fail', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), digits(7, 12), (whole, fraction) => {
        const value = `${whole}.${fraction}`;
        return !isPercent0To100(value) && !isPercent1To100(value);
      }),
    );
  });

  it('percentages: anything above 100 fails', () => {
    fc.assert(
      fc.property(fc.integer({ min: 101, max: 10_000_000 }), fc.option(digits(1, 6)), (whole, fraction) => {
        const value = fraction === null ? String(whole) : `${whole}.${fraction}`;
        return !isPercent0To100(value) && !isPercent1To100(value);
      }),
    );
  });

  it('headcount: 0-999999 passes, 1000000 and above or negative fails', () => {
    expect(isHeadcount('999999')).toBe(true);
    expect(isHeadcount('1000000')).toBe(false);
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999 }), (n) => isHeadcount(String(n))));
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000_000, max: Number.MAX_SAFE_INTEGER }),
        (n) => !isHeadcount(String(n)),
      ),
    );
    fc.assert(fc.property(fc.integer({ min: -1_000_000, max: -1 }), (n) => !isHeadcount(String(n))));
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999 }), (n) => zfield.headcount.parse(n) === n));
  });
});

describe('spec constants', () => {
  it('keeps the spec values, including the misspelt token key', () => {
    expect(TOKEN_KEY).toBe('EL-ADMIN-TOEKN');
    expect(DEFAULT_SIZE).toBe('small');
    expect(SIZES).toContain(DEFAULT_SIZE);
    expect(PREDEFINED_THEME_COLORS).toContain(DEFAULT_THEME_COLOR);
    expect(DEFAULT_SETTINGS.theme).toBe(DEFAULT_THEME_COLOR);
    expect(SEARCH_FUSE.keys.reduce((sum, key) => sum + key.weight, 0)).toBeCloseTo(1);
  });

  it('is frozen at runtime', () => {
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
    expect(Object.isFrozen(PREDEFINED_THEME_COLORS)).toBe(true);
    expect(Object.isFrozen(SEARCH_FUSE.keys)).toBe(true);
  });
});

describe('formatTime: {y}{m}{d}{h}{i}{s}{a} placeholders in Asia/Shanghai time', () => {
  it('formats fixed instants in China Standard Time', () => {
    expect(formatTime(0)).toBe('1970-01-01 08:00:00');
    // 2023-11-14T22:13:20Z is Wednesday 06:13:20 the next morning in Shanghai.
    expect(formatTime(1_700_000_000_000, '{y}-{m}-{d} {h}:{i}:{s} 星期{a}')).toBe(
      '2023-11-15 06:13:20 星期三',
    );
    expect(formatTime(new Date('2023-11-14T22:13:20Z'))).toBe('2023-11-15 06:13:20');
    expect(formatTime('2023-11-14T22:13:20Z')).toBe('2023-11-15 06:13:20');
    expect(formatTime('1700000000000')).toBe('2023-11-15 06:13:20');
    // Midnight is 00, never 24.
    expect(formatTime(Date.UTC(2024, 0, 1, 16))).toBe('2024-01-02 00:00:00');
  });

  it('reads zone-less date-time strings as Shanghai wall-clock time', () => {
    expect(formatTime('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(formatTime('2024-01-02T03:04')).toBe('2024-01-02 03:04:00');
    expect(formatTime('2024-01-02', '{y}/{m}/{d} {h}')).toBe('2024/01/02 00');
  });

  it('ignores the machine time zone', () => {
    // shared's tsconfig carries no Node types, so reach Node's env through a narrow structural type.
    const { env } = (globalThis as unknown as { process: { env: Record<string, string | undefined> } })
      .process;
    const saved = env.TZ;
    try {
      for (const zone of ['UTC', 'America/New_York', 'Pacific/Kiritimati']) {
        env.TZ = zone;
        expect(formatTime(1_700_000_000_000)).toBe('2023-11-15 06:13:20');
        expect(formatTime('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
      }
    } finally {
      if (saved === undefined) delete env.TZ;
      else env.TZ = saved;
    }
  });

  it('returns an empty string for an invalid date and leaves unknown placeholders alone', () => {
    expect(formatTime('not a date')).toBe('');
    expect(formatTime(Number.NaN)).toBe('');
    expect(formatTime(new Date(Number.NaN))).toBe('');
    expect(formatTime(0, '{y}/{x}')).toBe('1970/{x}');
  });

  it('property: agrees with the zone database for any instant 1970-2100 (summer time of 1986-1991 included)', () => {
    const zone = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Shanghai',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    const weekdays = { Sun: '日', Mon: '一', Tue: '二', Wed: '三', Thu: '四', Fri: '五', Sat: '六' };
    const expected = (ms: number) => {
      const p = Object.fromEntries(zone.formatToParts(ms).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${weekdays[p.weekday as keyof typeof weekdays]}`;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), (ms) => {
        expect(formatTime(ms, '{y}-{m}-{d} {h}:{i}:{s} {a}')).toBe(expected(ms));
      }),
      { numRuns: 2_000 },
    );
    // Summer time: 1990-07-01 12:00 UTC was 21:00 in Shanghai; the last change was on 1991-09-15.
    expect(formatTime(Date.UTC(1990, 6, 1, 12))).toBe('1990-07-01 21:00:00');
    expect(formatTime(Date.UTC(1991, 8, 14, 16, 59, 59))).toBe('1991-09-15 01:59:59');
    expect(formatTime(Date.UTC(1991, 8, 14, 17))).toBe('1991-09-15 01:00:00');
    expect(formatTime(Date.UTC(1992, 0, 1) - 1, '{y}-{m}-{d} {h}')).toBe('1992-01-01 07');
  });

  it('property: formatting the formatted string again is a fixed point, DST years 1986-1991 included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), (ms) => {
        const once = formatTime(ms);
        expect(formatTime(once)).toBe(once);
      }),
    );
  });
});

describe('spec: downloaded file name is timestamp-name.ext', () => {
  it('joins timestamp, name and extension, stripping a leading dot from the extension', () => {
    expect(downloadFileName('保单列表', 'xlsx', 1_700_000_000_000)).toBe('1700000000000-保单列表.xlsx');
    expect(downloadFileName('保单列表', '.xlsx', 1_700_000_000_000)).toBe('1700000000000-保单列表.xlsx');
  });

  it('defaults the timestamp to now', () => {
    const before = Date.now();
    const [stamp] = downloadFileName('a', 'csv').split('-');
    expect(Number(stamp)).toBeGreaterThanOrEqual(before);
    expect(Number(stamp)).toBeLessThanOrEqual(Date.now());
  });

  it('property: always timestamp-name.ext', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.string({ minLength: 1 }),
        fc.stringMatching(/^[a-z0-9]{1,5}$/),
        fc.boolean(),
        (now, name, ext, dotted) => {
          expect(downloadFileName(name, dotted ? `.${ext}` : ext, now)).toBe(`${now}-${name}.${ext}`);
        },
      ),
    );
  });
});

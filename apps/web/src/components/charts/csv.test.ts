import { describe, expect, it, vi } from 'vitest';
import { saveCsv, toCsv } from './csv.ts';

vi.mock('@/lib/download.ts', () => ({ saveBlob: vi.fn() }));

describe('toCsv', () => {
  it('starts with a BOM, quotes what needs quoting, keeps numbers and defuses formulas', () => {
    const text = toCsv(
      ['名称', '金额'],
      [
        ['甲,乙', 1234.5],
        ['说"明"', -3],
        ['=HYPERLINK("x")', '-12.50'],
        [null, undefined],
      ],
    );
    expect(text).toBe(
      '\uFEFF名称,金额\r\n"甲,乙",1234.5\r\n"说""明""",-3\r\n"\'=HYPERLINK(""x"")",-12.50\r\n,\r\n',
    );
  });

  it('saves as timestamp-name.csv through saveBlob', async () => {
    const { saveBlob } = await import('@/lib/download.ts');
    const name = saveCsv('审核结论', ['期间'], [['2026-03-01']]);
    expect(name).toMatch(/^\d{13}-审核结论\.csv$/);
    const [blob, fileName] = vi.mocked(saveBlob).mock.calls[0]!;
    expect(fileName).toBe(name);
    // Blob.text() drops a BOM; the bytes keep it.
    const bytes = new Uint8Array(await (blob as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await (blob as Blob).text()).toBe('期间\r\n2026-03-01\r\n');
  });
});

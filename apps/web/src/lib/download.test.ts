import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download.ts';

describe('file name from Content-Disposition', () => {
  it("reads RFC 5987's filename* first (the server's Chinese names)", () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename*=UTF-8''1767225600000-${encodeURIComponent('用户数据')}.xlsx`,
      ),
    ).toBe('1767225600000-用户数据.xlsx');
    expect(fileNameFromDisposition(`attachment; filename="a.xlsx"; filename*=UTF-8''b%20c.xlsx`)).toBe(
      'b c.xlsx',
    );
  });

  it('then a plain or quoted filename', () => {
    expect(fileNameFromDisposition('attachment; filename="1-report.xlsx"')).toBe('1-report.xlsx');
    expect(fileNameFromDisposition('attachment; filename=1-report.xlsx')).toBe('1-report.xlsx');
  });

  it('null without one', () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A")).toBeNull();
  });
});

// CSV export of a chart's figures: UTF-8 with a BOM (so Excel reads the Chinese headers), RFC 4180 quoting, and
// text that a spreadsheet would run as a formula (= + - @ at the start) defused with a leading apostrophe.
import { downloadFileName } from '@piibs/shared/constants';
import { saveBlob } from '@/lib/download.ts';

export type CsvCell = string | number | null | undefined;

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text (with BOM) of a header row and data rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Saves the rows as `timestamp-name.csv`; answers the file name. */
export function saveCsv(
  name: string,
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
): string {
  const fileName = downloadFileName(name, 'csv');
  saveBlob(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }), fileName);
  return fileName;
}

// The one export helper: streams a real .xlsx (exceljs' streaming WorkbookWriter) built from row batches,
// with Chinese column headers, as `Content-Disposition: attachment; filename*=UTF-8''<timestamp>-<name>.xlsx`.
import { PassThrough } from 'node:stream';
import { downloadFileName, formatTime } from '@piibs/shared/constants';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

export type CellValue = string | number | boolean | Date | null | undefined;

export interface XlsxColumn<T> {
  /** The Chinese column header. */
  header: string;
  /** Column width in characters (default 16). */
  width?: number;
  value: (row: T) => CellValue;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The response schema of a download route (documents the binary body in OpenAPI). */
export const xlsxResponse = z.string().meta({ format: 'binary', description: `${XLSX_CONTENT_TYPE}` });

/** `attachment; filename*=UTF-8''1767225600000-%E7%94%A8%E6%88%B7.xlsx` (RFC 6266 / 5987). */
export function attachmentHeader(fileName: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Dates as the product shows them: Asia/Shanghai, `yyyy-mm-dd hh:ii:ss`. */
function cell(v: CellValue): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return formatTime(v);
  return v;
}

/**
 * Sends an .xlsx download. Rows are written as the batches arrive, so memory stays flat whatever the size;
 * an error half-way aborts the stream (the client sees a failed download, never a corrupt file saved as good).
 */
export function sendXlsx<T>(
  reply: FastifyReply,
  opts: { name: string; sheet?: string; columns: XlsxColumn<T>[]; rows: AsyncIterable<T[]> },
): FastifyReply {
  const out = new PassThrough();
  const write = async () => {
    // Loaded at the first export rather than at start: exceljs is the slowest module of the server to load.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(opts.sheet ?? opts.name);
    sheet.columns = opts.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 16 }));
    sheet.getRow(1).font = { bold: true };
    for await (const batch of opts.rows) {
      for (const row of batch) sheet.addRow(opts.columns.map((c) => cell(c.value(row)))).commit();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((err: unknown) => {
    reply.log.error({ err }, 'xlsx export failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });

  return reply
    .type(XLSX_CONTENT_TYPE)
    .header('content-disposition', attachmentHeader(downloadFileName(opts.name, 'xlsx')))
    .header('cache-control', 'no-store')
    .send(out);
}

// What an uploaded material must be, beyond its size: one of the accepted types by its first bytes, a picture
// within the pixel budget (a small file declaring a huge picture is a decompression bomb), a PDF that runs
// nothing when opened. Each refusal is a 400 naming the field (文件).
import { imagePixelsProblem } from '@piibs/shared/image-size';
import { isImageMime, MATERIAL_MESSAGES, type MaterialMime, sniffMaterialMime } from '@piibs/shared/material';
import { badRequest, fieldError } from '../../lib/errors.ts';
import { checkPdf, type PdfVerdict } from './pdf-check.ts';

const ACTIVE_PDF: Readonly<Record<string, string>> = {
  '/JS': '脚本',
  '/JavaScript': '脚本',
  '/Launch': '启动外部程序的动作',
  '/AA': '自动执行的动作',
};

/** The refusal of a PDF that is not inert, or null. */
export function pdfProblem(verdict: PdfVerdict): string | null {
  if (verdict.ok) return null;
  if ('active' in verdict)
    return `PDF 含有${ACTIVE_PDF[verdict.active] ?? '脚本'}，不能上传；请另存为不含脚本的 PDF 或图片后重试`;
  return `PDF 无法检查（${verdict.uncheckable}），不能上传；请另存为普通 PDF 或图片后重试`;
}

/** The content type of an upload once every check holds; otherwise throws the 400. */
export function checkedMaterialMime(bytes: Buffer): MaterialMime {
  const mime = sniffMaterialMime(bytes);
  if (!mime) throw badRequest(MATERIAL_MESSAGES.type);
  const problem = isImageMime(mime) ? imagePixelsProblem(bytes) : pdfProblem(checkPdf(bytes));
  if (problem) throw fieldError('file', problem, '文件');
  return mime;
}

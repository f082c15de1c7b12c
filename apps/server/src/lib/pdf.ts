// The PDF kit of the server's documents (the e-policy, the endorsement, the prevention archive), made with pdfkit
// and a CJK font shipped in an npm package (@embedpdf/fonts-sc: Noto Sans Hans, OFL; pdfkit embeds only the
// glyphs used): an A4 document with the footer and page number on every page, section titles, label/value rows
// and bordered tables that break across pages. An issued document is finished with the insurer's seal: the round
// red electronic seal drawn on page 1 as vector graphics at the signature field's rectangle, and the PDF digital
// signature of the insurer's certificate (lib/signing.ts) — see issueSignedDocument (modules/documents/issue.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { type DocumentSigner, signPdf } from './signing.ts';

const fontDir = (() => {
  const entry = createRequire(import.meta.url).resolve('@embedpdf/fonts-sc');
  return path.join(path.dirname(entry), '..', 'fonts');
})();
const FONT_REGULAR = path.join(fontDir, 'NotoSansHans-Regular.otf');
const FONT_BOLD = path.join(fontDir, 'NotoSansHans-Bold.otf');

export const MARGIN = 48;
export const BLUE = '#1f4e99';
export const GREY = '#666666';
const LINE = '#b8c4d6';
const KEY_FILL = '#eef3fa';

export interface PdfDocument {
  doc: PDFKit.PDFDocument;
  left: number;
  width: number;
  /** The lowest y the content may reach on a page. */
  bottom: () => number;
  /**
   * Prints `footer · 第 n / m 页` on every page's foot and answers the PDF bytes; with a seal, draws it on page 1
   * and answers the signed bytes.
   */
  finish: (footer: string, seal?: Seal) => Promise<Buffer>;
}

/** What an issued document is sealed and signed with (issueSignedDocument hands it to the renderer). */
export interface Seal {
  signer: DocumentSigner;
  /** The insurer's name, round the seal's rim. */
  insurerName: string;
  /** The seal's lower line, e.g. 电子保单专用章. */
  label: string;
  /** The signature's reason, e.g. 签发电子保单 PAZX202600000001. */
  reason: string;
}

export const SEAL_RED = '#d4161c';
/** The seal's diameter: 42 mm, as an insurer's round seal. */
const SEAL_SIZE = 119;

/**
 * The round red seal (印章) inside the square at (x, y) of side `size`: a double rim, the insurer's name along
 * the upper arc, a five-pointed star in the middle and `label` beneath it. Vector graphics only.
 */
export function drawSeal(
  doc: PDFKit.PDFDocument,
  x: number,
  y: number,
  size: number,
  insurer: string,
  label: string,
) {
  const r = size / 2;
  const cx = x + r;
  const cy = y + r;
  doc.save();
  doc
    .circle(cx, cy, r - 1.5)
    .lineWidth(3)
    .strokeColor(SEAL_RED)
    .strokeOpacity(0.9)
    .stroke();
  doc
    .circle(cx, cy, r - 5)
    .lineWidth(0.6)
    .strokeColor(SEAL_RED)
    .stroke();
  // The star: outer radius a quarter of the seal.
  const outer = r * 0.3;
  const inner = outer * 0.382;
  const points: [number, number][] = [];
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push([cx + rad * Math.cos(a), cy + rad * Math.sin(a)]);
  }
  doc
    .polygon(...points)
    .fillColor(SEAL_RED)
    .fillOpacity(0.9)
    .fill();
  // The name along the upper arc, each character upright to the rim, from lower left to lower right.
  const chars = Array.from(insurer);
  const fontSize = Math.min(13, Math.max(8, (r * 3) / Math.max(chars.length, 1)));
  const span = Math.min(215, chars.length * 20) * (Math.PI / 180);
  const textRadius = r - 9 - fontSize / 2;
  doc.font('cjk-bold').fontSize(fontSize).fillColor(SEAL_RED).fillOpacity(0.9);
  chars.forEach((ch, i) => {
    const angle = -span / 2 + (chars.length === 1 ? span / 2 : (i * span) / (chars.length - 1));
    const px = cx + textRadius * Math.sin(angle);
    const py = cy - textRadius * Math.cos(angle);
    doc.save();
    doc.rotate((angle * 180) / Math.PI, { origin: [px, py] });
    doc.text(ch, px - fontSize / 2, py - fontSize * 0.6, { lineBreak: false, width: fontSize + 2 });
    doc.restore();
  });
  const labelSize = Math.min(9, (r * 1.1) / Math.max(Array.from(label).length, 1));
  doc
    .font('cjk-bold')
    .fontSize(labelSize)
    .text(label, cx - r * 0.6, cy + outer + 4, { width: r * 1.2, align: 'center', lineBreak: false });
  doc.restore();
}

/** Opens an A4 document with the CJK fonts registered as 'cjk' and 'cjk-bold'. */
export function createPdf(info: PDFKit.DocumentInfo): PdfDocument {
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info,
  });
  doc.registerFont('cjk', FONT_REGULAR);
  doc.registerFont('cjk-bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;

  const finish = async (footer: string, seal?: Seal) => {
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // Writing inside the bottom margin must not start a new page.
      doc.page.margins.bottom = 0;
      doc
        .font('cjk')
        .fontSize(8)
        .fillColor(GREY)
        .text(
          `${footer} · 第 ${i - range.start + 1} / ${range.count} 页`,
          left,
          doc.page.height - MARGIN + 8,
          {
            width,
            align: 'center',
            lineBreak: false,
          },
        );
    }
    // The seal at the foot of page 1, right, where the signature field lies.
    const sealX = left + width - SEAL_SIZE - 4;
    const sealY = doc.page.height - MARGIN - 14 - SEAL_SIZE;
    if (seal) {
      doc.switchToPage(range.start);
      drawSeal(doc, sealX, sealY, SEAL_SIZE, seal.insurerName, seal.label);
    }
    const pageHeight = doc.page.height;
    doc.end();
    await ended;
    const bytes = Buffer.concat(chunks);
    if (!seal) return bytes;
    return signPdf(bytes, seal.signer, {
      // PDF units: the origin at the bottom left.
      rect: [sealX, pageHeight - sealY - SEAL_SIZE, sealX + SEAL_SIZE, pageHeight - sealY],
      reason: seal.reason,
      location: seal.insurerName,
      name: seal.signer.certificate.subject,
    });
  };
  return { doc, left, width, bottom: () => doc.page.height - MARGIN - 12, finish };
}

/** A section title (on a new page when little room is left); answers the y below it. */
export function section(
  doc: PDFKit.PDFDocument,
  title: string,
  y: number,
  bottom: () => number,
  size = 12,
): number {
  let top = y;
  if (top + 36 + size > bottom()) {
    doc.addPage();
    top = MARGIN;
  }
  doc.font('cjk-bold').fontSize(size).fillColor(BLUE).text(title, MARGIN, top);
  return doc.y + 4;
}

/**
 * Label/value rows: one pair across the page, or two pairs side by side, the labels `label` wide. Answers the
 * y below.
 */
export function facts(
  o: Pick<PdfDocument, 'doc' | 'width' | 'bottom'>,
  y: number,
  pairs: [string, string][][],
  label = 92,
): number {
  const half = o.width / 2;
  let top = y;
  for (const row of pairs) {
    const widths = row.length === 1 ? [label, o.width - label] : [label, half - label, label, half - label];
    top = table(o.doc, top, widths, [row.flat()], { header: false, bottom: o.bottom, keyColumns: [0, 2] });
  }
  return top;
}

/** Lines in small grey type (a section's notes); answers the y below. */
export function notes(o: Pick<PdfDocument, 'doc' | 'left' | 'width'>, y: number, lines: string[]): number {
  o.doc
    .font('cjk')
    .fontSize(9)
    .fillColor(GREY)
    .text(lines.join('\n'), o.left, y, { width: o.width, lineGap: 3 });
  return o.doc.y;
}

interface TableOptions {
  /** The first row is a header, drawn bold and repeated at the top of each page the table continues on. */
  header: boolean;
  bottom: () => number;
  /** Columns drawn as labels (bold, shaded). */
  keyColumns?: number[];
  /** 'numbers': the first column left, the others right; default left. */
  align?: 'left' | 'right' | 'numbers';
}

/** A bordered table; an empty cell shows '—'. Breaks pages as needed. Answers the y below. */
export function table(
  doc: PDFKit.PDFDocument,
  y: number,
  widths: number[],
  rows: string[][],
  opts: TableOptions,
): number {
  const pad = 4;
  const align = (c: number) =>
    opts.align === 'numbers' ? (c > 0 ? 'right' : 'left') : (opts.align ?? 'left');
  let top = y;
  const draw = (row: string[], isHeader: boolean) => {
    const isKey = (c: number) => isHeader || (opts.keyColumns?.includes(c) ?? false);
    const font = (c: number) => (isKey(c) ? 'cjk-bold' : 'cjk');
    const cells = row.map((cell) => cell || '—');
    doc.fontSize(9);
    const height =
      Math.max(
        ...cells.map((cell, c) => doc.font(font(c)).heightOfString(cell, { width: widths[c]! - pad * 2 })),
      ) +
      pad * 2;
    if (top + height > opts.bottom()) {
      doc.addPage();
      top = MARGIN;
      if (opts.header && !isHeader) draw(rows[0]!, true);
    }
    let x = MARGIN;
    cells.forEach((cell, c) => {
      const w = widths[c]!;
      if (isKey(c)) doc.rect(x, top, w, height).fill(KEY_FILL);
      doc.rect(x, top, w, height).lineWidth(0.5).strokeColor(LINE).stroke();
      doc
        .font(font(c))
        .fontSize(9)
        .fillColor('#000')
        .text(cell, x + pad, top + pad, { width: w - pad * 2, align: align(c) });
      x += w;
    });
    top += height;
  };
  rows.forEach((row, r) => {
    draw(row, opts.header && r === 0);
  });
  return top;
}

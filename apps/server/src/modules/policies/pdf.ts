// The e-policy (电子保单) as a PDF (the kit: lib/pdf.ts). It carries the policy's data, its coverages, the
// co-insurers (the issuer among them) with their shares and amounts in yuan and who collects the premium, the
// prevention fee, and the verification code with a QR
// code of the public verification page. Its frame (the header with the QR code, the footer on every page) is
// shared with the endorsement (批单, project-orders/endorsement-pdf.ts).
import { collectionNotice } from '@piibs/shared/coinsurance';
import { formatFen, microPercentText } from '@piibs/shared/money';
import {
  type CoverTable,
  coverTableOf,
  type PolicyCoinsurer,
  type PolicyCoverage,
  periodText,
} from '@piibs/shared/policy';
import QRCode from 'qrcode';
import {
  BLUE,
  createPdf,
  facts,
  GREY,
  MARGIN,
  notes,
  type PdfDocument,
  type Seal,
  section,
  table,
} from '../../lib/pdf.ts';

export interface PolicyPdfData {
  /** The insurer (the organisation running the system). */
  insurerName: string;
  number: string;
  applicationNumber: string;
  productName: string;
  clauseVersion: string | null;
  holderName: string;
  holderUscc: string;
  insuredName: string;
  insuredUscc: string | null;
  insuredAddress: string | null;
  startDate: string;
  endDate: string;
  premiumFen: number;
  preventionRatio: number | null;
  preventionFeeFen: number;
  headcount: number | null;
  projectName: string | null;
  specialTerms: string | null;
  coverages: PolicyCoverage[];
  coinsurers: PolicyCoinsurer[];
  /** The named insured list (从业人员名单), numbers masked: the annex. Absent or empty: no annex. */
  insuredPersons?: { name: string; idNumberMasked: string }[];
  verificationCode: string;
  /** Absolute URL of the public verification page (the QR code). */
  verifyUrl: string;
  issuedAt: Date;
  /** "yyyy-mm-dd hh:ii:ss" in Asia/Shanghai. */
  issuedAtText: string;
}

/** The covers' table (shared with the web's policy page), the premium note under it; answers the y below. */
export function coverTable(
  o: Pick<PdfDocument, 'doc' | 'left' | 'width' | 'bottom'>,
  y: number,
  t: CoverTable,
) {
  const { doc, left, width, bottom } = o;
  const amount = t.columns.length > 5 ? 75 : 80;
  const amounts = t.columns.length - 1;
  let below = table(
    doc,
    y,
    [width - amounts * amount, ...Array<number>(amounts).fill(amount)],
    [t.columns, ...t.rows.map((r) => r.cells)],
    { header: true, bottom, align: 'numbers' },
  );
  if (t.premiumNote) {
    doc
      .font('cjk')
      .fontSize(9)
      .fillColor('#000')
      .text(t.premiumNote, left, below + 4, { width });
    below = doc.y;
  }
  return below;
}

/** The frame every e-document of a policy shares: the header with its QR code, the footer on every page. */
export interface DocumentFrame {
  insurerName: string;
  /** The large title (the product's name). */
  title: string;
  /** Under it: 电子保险单, 批单 … */
  subtitle: string;
  /** The PDF's metadata. */
  info: { Title: string; Subject: string; Keywords: string };
  createdAt: Date;
  /** Encoded in the QR code at the top right. */
  qrUrl: string;
  /** Printed on every page's foot, followed by the page number. */
  footer: string;
  /** The insurer's seal and signature (issueSignedDocument gives it). */
  seal: Seal;
}

export interface OpenDocument extends Omit<PdfDocument, 'finish'> {
  /** The y below the header. */
  top: number;
  /** Prints the footers, draws the seal, signs, and answers the signed PDF bytes. */
  finish: () => Promise<Buffer>;
}

/** Opens an A4 document with the CJK fonts and draws the header (insurer, title, subtitle, QR code, rule). */
export async function openDocument(f: DocumentFrame): Promise<OpenDocument> {
  const qr = await QRCode.toBuffer(f.qrUrl, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 240,
  });
  const pdf = createPdf({ ...f.info, Author: f.insurerName, CreationDate: f.createdAt });
  const { doc, left, width } = pdf;
  doc
    .font('cjk-bold')
    .fontSize(11)
    .fillColor(BLUE)
    .text(f.insurerName, left, MARGIN, { width: width - 110 });
  doc
    .font('cjk-bold')
    .fontSize(20)
    .fillColor('#000')
    .text(f.title, left, MARGIN + 22, { width: width - 110 });
  doc
    .font('cjk-bold')
    .fontSize(16)
    .text(f.subtitle, { width: width - 110 });
  doc.image(qr, left + width - 96, MARGIN - 4, { width: 96 });
  doc
    .font('cjk')
    .fontSize(8)
    .fillColor(GREY)
    .text('扫码验真', left + width - 96, MARGIN + 94, { width: 96, align: 'center' });
  const top = Math.max(doc.y, MARGIN + 108) + 8;
  doc
    .moveTo(left, top)
    .lineTo(left + width, top)
    .lineWidth(1.5)
    .strokeColor(BLUE)
    .stroke();

  return { ...pdf, top: top + 10, finish: () => pdf.finish(f.footer, f.seal) };
}

/** Renders the e-policy, sealed and signed; answers the PDF bytes. */
export async function renderPolicyPdf(d: PolicyPdfData, seal: Seal): Promise<Buffer> {
  const o = await openDocument({
    insurerName: d.insurerName,
    title: d.productName,
    subtitle: '电子保险单',
    info: {
      Title: `${d.productName} 电子保险单 ${d.number}`,
      Subject: `保险单号 ${d.number}`,
      Keywords: `${d.number} ${d.verificationCode}`,
    },
    createdAt: d.issuedAt,
    qrUrl: d.verifyUrl,
    footer: `${d.insurerName} · 保险单号 ${d.number} · 验证码 ${d.verificationCode}`,
    seal,
  });
  const { doc, left, width, bottom } = o;

  // ---- the policy's data: label/value pairs, two to a row where they are short ----
  const pairs: [string, string][][] = [
    [
      ['保险单号', d.number],
      ['投保单号', d.applicationNumber],
    ],
    [
      ['验证码', d.verificationCode],
      ['出单时间', d.issuedAtText],
    ],
    [['投保人', `${d.holderName}（统一社会信用代码 ${d.holderUscc}）`]],
    [['被保险人', d.insuredUscc ? `${d.insuredName}（证件号 ${d.insuredUscc}）` : d.insuredName]],
  ];
  if (d.insuredAddress) pairs.push([['被保险人地址', d.insuredAddress]]);
  const extra: [string, string][] = [];
  if (d.headcount != null) extra.push(['参保人数', `${d.headcount} 人`]);
  if (d.projectName) extra.push(['工程名称', d.projectName]);
  if (d.clauseVersion) extra.push(['条款版本', d.clauseVersion]);
  for (let i = 0; i < extra.length; i += 2) pairs.push(extra.slice(i, i + 2));
  pairs.push([['保险期间', periodText(d.startDate, d.endDate)]]);
  pairs.push([
    ['保险费合计', `人民币 ${formatFen(d.premiumFen)}`],
    [
      '事故预防服务费用',
      `${formatFen(d.preventionFeeFen)}${d.preventionRatio == null ? '' : `（保费的 ${microPercentText(d.preventionRatio)}%）`}`,
    ],
  ]);
  let y = facts(o, o.top, pairs);

  // ---- coverages ----
  y = section(doc, '保险责任及限额', y + 14, bottom);
  y = coverTable(o, y, coverTableOf(d.coverages, d.premiumFen));

  // ---- co-insurance ----
  if (d.coinsurers.length) {
    y = section(doc, '共保信息', y + 14, bottom);
    y = table(
      doc,
      y,
      [width - 60 - 80 - 2 * 100, 60, 80, 100, 100],
      [
        ['保险公司', '身份', '承保份额', '保险费', '事故预防费用'],
        ...d.coinsurers.map((c) => [
          c.insurerName ?? c.insurerCode,
          c.lead ? '主承保' : '共保',
          `${c.shareText}%`,
          formatFen(c.premiumFen),
          formatFen(c.preventionFeeFen),
        ]),
      ],
      { header: true, bottom, align: 'numbers' },
    );
    const collection = collectionNotice(d.coinsurers);
    if (collection) {
      doc
        .font('cjk')
        .fontSize(10)
        .fillColor('#000')
        .text(`${collection}。`, left, y + 6, { width });
      y = doc.y;
    }
  }

  // ---- special terms, notes ----
  if (d.specialTerms) {
    y = section(doc, '特别约定', y + 14, bottom);
    doc.font('cjk').fontSize(10).fillColor('#000').text(d.specialTerms, left, y, { width });
    y = doc.y;
  }
  y = section(doc, '重要提示', y + 14, bottom);
  y = notes(o, y, [
    '1. 本保险单为电子保险单，经本公司电子签章（数字签名）签署，与纸质保险单具有同等法律效力；文件一经改动，签名即失效。',
    `2. 验真：扫描右上角二维码，或访问 ${d.verifyUrl} 核对保单信息，并可将本文件拖入验真页面比对是否与签发文件一致。`,
    '3. 保险期间内发生生产安全事故，请立即报案并配合开展事故预防与理赔服务。',
  ]);

  // ---- annex: the named insured list (身份证号码 masked) ----
  const persons = d.insuredPersons ?? [];
  if (persons.length) {
    y = section(doc, `附件：从业人员名单（共 ${persons.length} 人）`, y + 14, bottom);
    table(
      doc,
      y,
      [60, (width - 60) / 2, (width - 60) / 2],
      [['序号', '姓名', '身份证号码'], ...persons.map((p, i) => [String(i + 1), p.name, p.idNumberMasked])],
      { header: true, bottom },
    );
  }
  return o.finish();
}

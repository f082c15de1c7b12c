// The endorsement (批单) as a PDF, in the e-policy's frame (modules/policies/pdf.ts): the endorsement's and the
// policy's numbers, the project, the changed fields before → after, the premium before and after and the
// difference to collect or refund, the wording that amends the policy, and the policy's covers with their limits
// (as on the e-policy; the premium after the change). The QR code verifies the policy it amends.

import { formatFen } from '@piibs/shared/money';
import { coverTableOf, type PolicyCoverage } from '@piibs/shared/policy';
import type { EndorsementChange } from '@piibs/shared/project-order';
import { facts, notes, type Seal, section, table } from '../../lib/pdf.ts';
import { coverTable, openDocument } from '../policies/pdf.ts';

export interface EndorsementPdfData {
  insurerName: string;
  number: string;
  policyNumber: string;
  declarationNumber: string;
  productName: string;
  holderName: string;
  holderUscc: string;
  projectName: string;
  effectiveDate: string;
  changes: EndorsementChange[];
  /** A named-list endorsement: the people added and removed (identity card numbers masked). */
  persons?: {
    added: { name: string; idNumberMasked: string }[];
    removed: { name: string; idNumberMasked: string }[];
  } | null;
  premiumBeforeFen: number;
  premiumAfterFen: number;
  premiumDiffFen: number;
  /** The policy's covers, unchanged by the endorsement. */
  coverages: PolicyCoverage[];
  /** The verification page of the policy amended. */
  verifyUrl: string;
  issuedAt: Date;
  issuedAtText: string;
}

/** 应加收 / 应退还 / 无 — the premium difference as the endorsement states it. */
export function premiumDiffText(diffFen: number): string {
  if (diffFen > 0) return `应加收保险费人民币 ${formatFen(diffFen)}`;
  if (diffFen < 0) return `应退还保险费人民币 ${formatFen(-diffFen)}`;
  return '保险费不变';
}

/** Renders the endorsement, sealed and signed; answers the PDF bytes. */
export async function renderEndorsementPdf(d: EndorsementPdfData, seal: Seal): Promise<Buffer> {
  const o = await openDocument({
    insurerName: d.insurerName,
    title: d.productName,
    subtitle: '批单',
    info: {
      Title: `${d.productName} 批单 ${d.number}`,
      Subject: `批单号 ${d.number}（保险单号 ${d.policyNumber}）`,
      Keywords: `${d.number} ${d.policyNumber}`,
    },
    createdAt: d.issuedAt,
    qrUrl: d.verifyUrl,
    footer: `${d.insurerName} · 批单号 ${d.number} · 保险单号 ${d.policyNumber}`,
    seal,
  });
  const { doc, left, width, bottom } = o;
  let y = facts(o, o.top, [
    [
      ['批单号', d.number],
      ['保险单号', d.policyNumber],
    ],
    [
      ['批改申报单号', d.declarationNumber],
      ['出单时间', d.issuedAtText],
    ],
    [['投保人', `${d.holderName}（统一社会信用代码 ${d.holderUscc}）`]],
    [['工程名称', d.projectName]],
    [['批改生效日期', `${d.effectiveDate} 零时`]],
  ]);

  y = section(doc, '批文', y + 14, bottom);
  doc
    .font('cjk')
    .fontSize(10)
    .fillColor('#000')
    .text(
      `经投保人申请，本公司同意自 ${d.effectiveDate} 零时起，对保险单 ${d.policyNumber} 作如下批改，` +
        `${premiumDiffText(d.premiumDiffFen)}。除本批改外，保险单其他内容不变。`,
      left,
      y,
      { width },
    );
  y = doc.y;

  y = section(doc, '批改内容', y + 14, bottom);
  y = table(
    doc,
    y,
    [100, (width - 100) / 2, (width - 100) / 2],
    [['批改项目', '批改前', '批改后'], ...d.changes.map((c) => [c.label, c.before, c.after])],
    { header: true, bottom, align: 'numbers' },
  );

  for (const [title, list] of [
    ['增加人员', d.persons?.added ?? []],
    ['减少人员', d.persons?.removed ?? []],
  ] as const) {
    if (!list.length) continue;
    y = section(doc, `${title}（共 ${list.length} 人）`, y + 14, bottom);
    y = table(
      doc,
      y,
      [60, (width - 60) / 2, (width - 60) / 2],
      [['序号', '姓名', '身份证号码'], ...list.map((p, i) => [String(i + 1), p.name, p.idNumberMasked])],
      { header: true, bottom },
    );
  }

  y = section(doc, '保险费', y + 14, bottom);
  y = table(
    doc,
    y,
    [width / 3, width / 3, width / 3],
    [
      ['批改前保险费', '批改后保险费', '保险费差额'],
      [formatFen(d.premiumBeforeFen), formatFen(d.premiumAfterFen), premiumDiffText(d.premiumDiffFen)],
    ],
    { header: true, bottom, align: 'numbers' },
  );

  y = section(doc, '保险责任及限额（批改后）', y + 14, bottom);
  y = coverTable(o, y, coverTableOf(d.coverages, d.premiumAfterFen));

  y = section(doc, '重要提示', y + 14, bottom);
  notes(o, y, [
    '1. 本批单为电子批单，经本公司电子签章（数字签名）签署，是保险单的组成部分，与纸质批单具有同等法律效力。',
    `2. 保费差额按年度订单结算：加收部分占用年度订单保费额度，退还部分释放相应额度。`,
    `3. 验真：扫描右上角二维码，或访问 ${d.verifyUrl} 核对所批改的保险单。`,
  ]);
  return o.finish();
}

// The accident-prevention service archive (事故预防服务档案, AQ 9010-2019) of one enterprise as a PDF summary:
// per policy its prevention fund (total / planned / spent / left, in yuan), its service orders, the hazards found
// with their rectification, and the complaints. The data is what the caller may see — the same visibility as
// the xlsx archive (GET /api/prevention/archive/download): the prevention records of plansVisibleTo and the
// orders of archiveSpec. Nothing visible answers 404. Made with pdfkit and the CJK font of the e-policy, sealed
// and signed by the insurer like every issued document (its hash recorded, the bytes not: it is made per request).
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { type FundSummary, preventionSeqNo } from '@piibs/shared/risk-control';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { allRows } from '../../lib/paging.ts';
import { BLUE, createPdf, facts, GREY, MARGIN, notes, type Seal, section, table } from '../../lib/pdf.ts';
import type { PreventionViewer } from './access.ts';
import { type ArchiveRow, archiveSpec } from './order-queries.ts';
import { planListSpec } from './plans.ts';

export const ARCHIVE_NOT_FOUND = '该企业没有可查看的事故预防服务档案';

export interface ArchivePolicy {
  seqNo: string;
  policyNumber: string;
  productName: string | null;
  startDate: string | null;
  endDate: string | null;
  /** Null only when the caller sees orders of the policy but not its prevention record. */
  fund: FundSummary | null;
  /** Oldest first. */
  orders: ArchiveRow[];
}

export interface ArchivePdfData {
  enterpriseName: string;
  uscc: string;
  policies: ArchivePolicy[];
  generatedAt: Date;
}

/** The archive of the enterprise `uscc` as the caller sees it; 404 when the caller sees nothing of it. */
export async function archivePdfData(
  db: Db,
  v: PreventionViewer,
  uscc: string,
  now: Date = new Date(),
): Promise<ArchivePdfData> {
  const plans = [];
  // The plan list filters by "contains"; the exact code is kept below.
  for await (const batch of allRows({}, planListSpec(db, v, { blurry: uscc })))
    plans.push(...batch.filter((p) => p.holderUscc === uscc));
  const orders: ArchiveRow[] = [];
  for await (const batch of allRows({}, archiveSpec(db, v, uscc))) orders.push(...batch);
  if (!plans.length && !orders.length) throw notFound(ARCHIVE_NOT_FOUND);

  const byPolicy = new Map<number, ArchivePolicy>();
  for (const p of plans.sort((a, b) => a.startDate.localeCompare(b.startDate) || a.policyId - b.policyId))
    byPolicy.set(p.policyId, {
      seqNo: p.seqNo,
      policyNumber: p.policyNumber,
      productName: p.productName,
      startDate: p.startDate,
      endDate: p.endDate,
      fund: p.fund,
      orders: [],
    });
  for (const o of orders) {
    let p = byPolicy.get(o.policyId);
    if (!p) {
      p = {
        seqNo: preventionSeqNo(o.policyNumber),
        policyNumber: o.policyNumber,
        productName: null,
        startDate: null,
        endDate: null,
        fund: null,
        orders: [],
      };
      byPolicy.set(o.policyId, p);
    }
    p.orders.push(o);
  }
  // The newest policy names the enterprise (its name may have changed over the years).
  const enterpriseName = plans.at(-1)?.holderName ?? orders.at(-1)?.holderName ?? uscc;
  return { enterpriseName, uscc, policies: [...byPolicy.values()], generatedAt: now };
}

/** Renders the archive summary, sealed and signed (issueSignedDocument); answers the PDF bytes. */
export async function renderArchivePdf(d: ArchivePdfData, seal: Seal): Promise<Buffer> {
  const generatedText = formatTime(d.generatedAt);
  const pdf = createPdf({
    Title: `事故预防服务档案 ${d.enterpriseName}`,
    Subject: `统一社会信用代码 ${d.uscc}`,
    Keywords: `${d.uscc} AQ 9010-2019`,
    CreationDate: d.generatedAt,
  });
  const { doc, left, width, bottom } = pdf;

  // ---- header ----
  doc.font('cjk-bold').fontSize(20).fillColor('#000').text('事故预防服务档案', left, MARGIN, { width });
  doc
    .font('cjk')
    .fontSize(9)
    .fillColor(GREY)
    .text('依据 AQ 9010-2019《安全生产责任保险事故预防技术服务规范》', { width });
  let y = doc.y + 8;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1.5)
    .strokeColor(BLUE)
    .stroke();
  y += 10;

  const allOrders = d.policies.flatMap((p) => p.orders);
  const hazards = allOrders.flatMap((o) => o.hazards.map((h) => ({ o, h })));
  const complaints = allOrders.flatMap((o) => o.complaints.map((c) => ({ o, c })));
  const pairs: [string, string][][] = [
    [['投保企业', d.enterpriseName]],
    [['统一社会信用代码', d.uscc]],
    [
      ['保单数', `${d.policies.length} 张`],
      ['服务单数', `${allOrders.length} 单`],
    ],
    [
      [
        '发现隐患',
        `${hazards.length} 项（未整改 ${hazards.filter((x) => x.h.status === 'OPEN').length} 项）`,
      ],
      [
        '投诉',
        `${complaints.length} 件（未答复 ${complaints.filter((x) => x.c.status === 'OPEN').length} 件）`,
      ],
    ],
  ];
  y = facts(pdf, y, pairs, 110);

  for (const p of d.policies) {
    y = section(doc, `保单 ${p.policyNumber}`, y + 18, bottom, 13);
    const about = [`事故预防编号 ${p.seqNo}`];
    if (p.productName) about.push(p.productName);
    if (p.startDate && p.endDate) about.push(`保险期间 ${p.startDate} 至 ${p.endDate}`);
    doc.font('cjk').fontSize(9).fillColor(GREY).text(about.join(' · '), left, y, { width });
    y = doc.y + 6;

    // ---- the fund ----
    y = section(doc, '事故预防费用（元）', y + 4, bottom, 11);
    const f = p.fund;
    y = table(
      doc,
      y,
      [width / 4, width / 4, width / 4, width / 4],
      [
        ['总额', '已计划', '已使用', '剩余'],
        f
          ? [formatFen(f.totalFen), formatFen(f.plannedFen), formatFen(f.spentFen), formatFen(f.leftFen)]
          : ['—', '—', '—', '—'],
      ],
      { header: true, bottom, align: 'right' },
    );

    // ---- the orders ----
    y = section(doc, '服务单', y + 12, bottom, 11);
    if (!p.orders.length) y = notes(pdf, y, ['暂无服务单']);
    else
      y = table(
        doc,
        y,
        [138, 70, width - 138 - 70 - 100 - 48 - 40, 100, 48, 40],
        [
          ['服务单号', '服务项目', '服务机构', '服务日期', '状态', '满意度'],
          ...p.orders.map((o) => [
            o.number,
            o.itemLabel,
            o.orgName,
            o.serviceDate ?? `${o.scheduledDate}（计划）`,
            o.statusLabel,
            o.satisfaction == null ? '—' : `${o.satisfaction} 分`,
          ]),
        ],
        { header: true, bottom },
      );

    // ---- hazards ----
    const ph = p.orders.flatMap((o) => o.hazards.map((h) => ({ o, h })));
    y = section(doc, '隐患与整改', y + 12, bottom, 11);
    if (!ph.length) y = notes(pdf, y, ['未发现隐患']);
    else
      y = table(
        doc,
        y,
        [138, 40, width - 138 - 40 - 70 - 90, 70, 90],
        [
          ['服务单号', '等级', '隐患描述', '整改期限', '整改情况'],
          ...ph.map(({ o, h }) => [
            `${o.number} #${h.seq}`,
            h.levelLabel,
            h.location ? `${h.description}（${h.location}）` : h.description,
            h.deadline,
            h.rectifiedDate
              ? `${h.statusLabel}（${h.rectifiedDate}）`
              : h.overdue
                ? `${h.statusLabel}（已逾期）`
                : h.statusLabel,
          ]),
        ],
        { header: true, bottom },
      );

    // ---- complaints ----
    const pc = p.orders.flatMap((o) => o.complaints.map((c) => ({ o, c })));
    y = section(doc, '投诉', y + 12, bottom, 11);
    if (!pc.length) y = notes(pdf, y, ['无投诉']);
    else
      y = table(
        doc,
        y,
        [138, 70, (width - 208) / 2, (width - 208) / 2],
        [
          ['服务单号', '投诉日期', '投诉内容', '答复'],
          ...pc.map(({ o, c }) => [
            o.number,
            c.complainedOn,
            c.content,
            c.reply ? c.reply : `未答复（答复期限 ${c.deadline}${c.overdue ? '，已逾期' : ''}）`,
          ]),
        ],
        { header: true, bottom },
      );
  }

  if (y + 30 > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  doc
    .font('cjk')
    .fontSize(9)
    .fillColor(GREY)
    .text(`生成时间：${generatedText}（仅含当前账号可查看的服务记录）`, left, y + 16, { width });

  return pdf.finish(`${d.enterpriseName} · 事故预防服务档案`, seal);
}

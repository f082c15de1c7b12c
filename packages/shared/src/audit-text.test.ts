import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, auditActionText, auditDetailLines } from './audit-text.ts';

describe('the audit trail in plain Chinese', () => {
  it('a change reads 字段：旧值 → 新值: statuses named, money formatted, empty as （空）', () => {
    expect(
      auditDetailLines({
        before: { reviewStatus: 'returned', headcount: 120, premiumFen: 2_676_000, note: null },
        after: { reviewStatus: 'pending', headcount: 118, premiumFen: 2_600_000, note: '补充资料' },
        taskId: 31,
      }),
    ).toEqual([
      '审核状态：已退回 → 待审核',
      '人数：120 → 118',
      '保费：¥26,760.00 → ¥26,000.00',
      '备注：（空） → 补充资料',
      '审核任务号：31',
    ]);
  });

  it('other details read 字段：值, lists joined and fields named; nothing is JSON', () => {
    const lines = auditDetailLines({
      fields: ['insuredCount', 'startDate'],
      status: 'PENDING_PAYMENT',
      enabled: false,
    });
    expect(lines).toEqual(['修改的字段：参保人数、起保日期', '状态：待支付', '启用：否']);
    expect(lines.join('')).not.toMatch(/[{}"]/);
    expect(auditDetailLines(null)).toEqual([]);
  });

  it('an application’s changes read as its wizard names them: 参保人数, ratios in %, types and coverages named', () => {
    expect(
      auditDetailLines(
        {
          before: {
            headcount: 120,
            preventionRatio: 15_000_000,
            policyholderType: 1,
            coverages: [],
            highRisk: false,
          },
          after: {
            headcount: 118,
            preventionRatio: 18_500_000,
            policyholderType: 2,
            coverages: ['RESCUE', 'LEGAL_COSTS'],
            highRisk: true,
          },
        },
        'application',
      ),
    ).toEqual([
      '参保人数：120 → 118',
      '事故预防费用比例：15% → 18.5%',
      '投保人类型：企业 → 个人',
      '附加责任：（空） → 事故应急救援费用、法律诉讼费用',
      '高风险工程：否 → 是',
    ]);
    expect(auditDetailLines({ before: { headcount: 50 }, after: { headcount: 60 } }, 'customer')).toEqual([
      '单位总人数：50 → 60',
    ]);
  });

  it('names every action the review and application flows write', () => {
    for (const action of [
      'review_return',
      'review_approve',
      'submit',
      'resubmit',
      'coinsurers',
      'charge',
      'issue',
    ])
      expect(AUDIT_ACTION_LABELS[action], action).toBeTruthy();
    expect(auditActionText('review_return', 'application')).toBe('审核退回 · 投保单');
  });
});

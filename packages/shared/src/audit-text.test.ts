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

import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_LABELS,
  actorText,
  auditActionText,
  auditDetailLines,
  auditRecordText,
  auditRefs,
  MACHINE_ACTORS,
  paymentActor,
  SYSTEM_ACTOR,
} from './audit-text.ts';

describe('the audit trail in plain Chinese', () => {
  it('a change reads 字段：旧值 → 新值: statuses named, money formatted, empty as （空）', () => {
    expect(
      auditDetailLines(
        {
          before: { reviewStatus: 'returned', headcount: 120, premiumFen: 2_676_000, note: null },
          after: { reviewStatus: 'pending', headcount: 118, premiumFen: 2_600_000, note: '补充资料' },
          taskId: 31,
        },
        { entity: 'customer', names: { 'review_task:31': '镇江某公司（9132…）' } },
      ),
    ).toEqual([
      '审核状态：已退回 → 待审核',
      '单位总人数：120 → 118',
      '保费：¥26,760.00 → ¥26,000.00',
      '备注：（空） → 补充资料',
      '审核任务：镇江某公司（9132…）',
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
        { entity: 'application' },
      ),
    ).toEqual([
      '参保人数：120 → 118',
      '事故预防费用比例：15% → 18.5%',
      '投保人类型：企业 → 个人',
      '附加责任：（空） → 事故应急救援费用、法律诉讼费用',
      '高风险工程：否 → 是',
    ]);
    expect(
      auditDetailLines({ before: { headcount: 50 }, after: { headcount: 60 } }, { entity: 'customer' }),
    ).toEqual(['单位总人数：50 → 60']);
  });

  it('what was created or deleted reads 字段：值; hashes and storage keys are left out', () => {
    expect(
      auditDetailLines({ before: null, after: { name: '岗位0', enabled: true } }, { entity: 'job' }),
    ).toEqual(['名称：岗位0', '启用：是']);
    expect(
      auditDetailLines(
        {
          businessType: 'application',
          businessId: 8,
          mime: 'application/pdf',
          sizeBytes: 2048,
          sha256: 'ab',
        },
        { entity: 'material', names: { 'application:8': 'AZX2026000008' } },
      ),
    ).toEqual(['业务类型：投保单', '业务记录：AZX2026000008', '文件类型：PDF', '文件大小：2.0 KB']);
  });

  it('names records, regions, roles and dictionary codes by what the server found, never by id or code', () => {
    const detail = {
      before: { region: '321102', roleIds: [2], channel: 'staff', deptId: 4 },
      after: { region: '321100', roleIds: [2, 9], channel: 'agent', deptId: 7 },
      shares: [{ insurerCode: 'PICC', share: 60_000_000, lead: true }],
    };
    expect(auditRefs('user', '12', detail)).toEqual(
      expect.arrayContaining([
        { kind: 'user', value: '12' },
        { kind: 'region', value: '321102' },
        { kind: 'region', value: '321100' },
        { kind: 'role', value: '9' },
        { kind: 'dept', value: '7' },
        { kind: 'dict.coinsurer', value: 'PICC' },
      ]),
    );
    const names = {
      'region:321102': '京口区',
      'region:321100': '镇江市',
      'role:2': '核保员',
      'role:9': '安全专员',
      'dept:4': '承保部',
      'dict.coinsurer:PICC': '中国人民财产保险股份有限公司',
    };
    expect(auditDetailLines(detail, { entity: 'user', names })).toEqual([
      '地区：京口区 → 镇江市',
      '角色：核保员 → 核保员、安全专员',
      '渠道：内部员工 → 代理人',
      // A department deleted since is said to be gone, not shown by its id.
      '部门：承保部 → （已删除）',
      '共保份额：共保公司 中国人民财产保险股份有限公司，份额 60%，主承 是',
    ]);
  });

  it('names the object of an entry by its business number or name; a material by its record', () => {
    const names = { 'application:8': 'AZX2026000008', 'policy:3': 'PAZX202600000001', 'user:5': '王五' };
    expect(auditRecordText('application', '8', { number: 'AZX2026000008' }, names)).toBe('AZX2026000008');
    expect(auditRecordText('user', '5', null, names)).toBe('王五');
    // A sales supplement is kept under its policy.
    expect(auditRecordText('sales_supplement', '3', {}, names)).toBe('PAZX202600000001');
    expect(
      auditRecordText(
        'material',
        '40',
        { businessType: 'application', businessId: 8, originalName: 'a.pdf' },
        names,
      ),
    ).toBe('投保单 AZX2026000008');
    // Deleted since: the number or name the entry recorded.
    expect(auditRecordText('job', '77', { before: { name: '岗位0' }, after: null }, names)).toBe('岗位0');
    expect(auditRecordText('session', 'abc', { method: 'password' }, names)).toBeNull();
  });

  it('names a step no person took: 系统自动, or the payment provider by its own name', () => {
    expect(actorText(SYSTEM_ACTOR)).toBe('系统自动');
    expect(actorText(paymentActor('sandbox'))).toBe('沙箱支付（测试环境）');
    expect(actorText('payment:unknown')).toBe('支付平台');
    expect(actorText('王五')).toBe('王五');
    expect(actorText(null)).toBeNull();
    for (const actor of MACHINE_ACTORS) expect(actorText(actor)).not.toMatch(/[a-z:]/);
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

import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TEXTS as N } from './notification.ts';

const all = (...texts: { title: string; body: string }[]) =>
  texts.map((t) => `${t.title} ${t.body}`).join('\n');

describe('what each notification says', () => {
  it('writes money with thousands separators and names the record by its business number', () => {
    expect(
      N.paymentReceived({
        applicationNumber: 'AZX2026000008',
        holderName: '镇江示例安全科技有限公司',
        amountFen: 2_676_000,
      }),
    ).toEqual({
      title: '保费支付成功',
      body: '投保单 AZX2026000008（镇江示例安全科技有限公司）的保费 ¥26,760.00 已支付成功，保单正在出具。',
    });
    expect(
      N.policyIssued({
        number: 'PAZX202600000001',
        applicationNumber: 'AZX2026000008',
        holderName: '镇江示例',
      }).body,
    ).toBe('投保单 AZX2026000008（镇江示例）已出单，保单号 PAZX202600000001，可查看并下载电子保单。');
  });

  it('names the people and the kind of task in words', () => {
    expect(
      N.taskOpened({ kind: 'application', title: 'AZX2026000004 镇江润扬', submitterName: '王代理' }),
    ).toEqual({
      title: '新的投保单审核任务',
      body: '王代理 提交了「AZX2026000004 镇江润扬」，等待审核。',
    });
    expect(
      N.taskAssigned({ kind: 'tender', title: 'EC2026000001 滨江花园', assignedByName: '李组长' }),
    ).toEqual({
      title: '指派给您的二次下单审核任务',
      body: '李组长 将「EC2026000001 滨江花园」指派给您审核。',
    });
    expect(
      N.taskReassigned({
        kind: 'customer',
        title: '镇江某公司',
        assignedByName: '李组长',
        assigneeName: '张核保',
      }).body,
    ).toBe('李组长 已将「镇江某公司」改派给 张核保，您无需再处理。');
  });

  it('says each review decision with its opinion (one closing mark) and what to do next', () => {
    expect(
      N.applicationDecided({
        decision: 'approve',
        number: 'AZX2026000003',
        customerName: '镇江示例',
        opinion: '同意。',
      }),
    ).toEqual({
      title: '投保单审核通过',
      body: '投保单 AZX2026000003（镇江示例）已审核通过。审核意见：同意。请在支付期限内完成支付。',
    });
    expect(
      N.customerDecided({
        decision: 'return',
        name: '句容恒通',
        uscc: '91321183MA1R2LNB6D',
        opinion: '地址不一致',
      }),
    ).toEqual({
      title: '投保人被退回',
      body: '投保人「句容恒通」（91321183MA1R2LNB6D）已被退回。审核意见：地址不一致。',
    });
    expect(
      N.tenderDecided({
        decision: 'reject',
        number: 'EC2026000003',
        projectName: '高新园道路',
        opinion: null,
      }),
    ).toEqual({ title: '二次下单被拒绝', body: '二次下单 EC2026000003（高新园道路）已被拒绝。' });
  });

  it('names the service item and counts the days left', () => {
    expect(
      N.serviceDispatched({
        number: 'YFPAZX202600000001-001',
        holderName: '镇江示例',
        itemType: 'HAZARD_INSPECTION',
        scheduledDate: '2026-11-29',
      }).body,
    ).toBe(
      '服务单 YFPAZX202600000001-001：为「镇江示例」提供隐患排查，计划服务日期 2026-11-29，请及时接单。',
    );
    expect(
      N.serviceConfirmed({ number: 'YF-002', holderName: '镇江示例', itemType: 'SAFETY_TRAINING' }).body,
    ).toBe('「镇江示例」已确认服务单 YF-002（安全培训）。');
    expect(
      N.policyExpiring({ number: 'P1', holderName: '镇江示例', endDate: '2027-01-01', days: 20 }).body,
    ).toBe('保单 P1（镇江示例）将于 2027-01-01 到期（还有 20 天），请及时办理续保。');
    expect(
      N.policyExpiring({ number: 'P1', holderName: '镇江示例', endDate: '2027-01-01', days: 0 }).body,
    ).toContain('（今天到期）');
  });

  it('never shows a code: an unknown service item reads 风控服务', () => {
    const texts = all(
      N.serviceDispatched({
        number: 'YF-1',
        holderName: 'X',
        itemType: 'SOMETHING_NEW',
        scheduledDate: '2027-01-01',
      }),
      N.serviceConfirmed({ number: 'YF-1', holderName: 'X', itemType: 'SOMETHING_NEW' }),
    );
    expect(texts).not.toMatch(/SOMETHING_NEW|undefined|null/);
    expect(texts).toContain('风控服务');
  });
});

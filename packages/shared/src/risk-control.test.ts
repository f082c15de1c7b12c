import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  complaintDeadline,
  fundLeft,
  insufficientFundMessage,
  nextScheduledDate,
  orgCodeField,
  planItemCreateForm,
  planItemUpdateForm,
  policyNumberOfSeqNo,
  preventionSeqNo,
  reserveChange,
  SERVICE_ORDER_ACTIONS,
  SERVICE_ORDER_STATUSES,
  type ServiceOrderAction,
  type ServiceOrderStatus,
  scheduledDatesProblem,
  serviceDateProblem,
  serviceOrderActionsFor,
  serviceOrderNext,
  serviceOrderNumber,
  serviceRecordForm,
  spendChange,
  weekdayOf,
} from './risk-control.ts';

describe('working days', () => {
  it('skips Saturdays and Sundays, never counting the starting day', () => {
    // 2026-05-08 is a Friday.
    expect(weekdayOf('2026-05-08')).toBe(5);
    expect(addWorkingDays('2026-05-08', 1)).toBe('2026-05-11');
    expect(addWorkingDays('2026-05-08', 10)).toBe('2026-05-22');
    // From a Saturday or a Sunday the next Monday is the first working day.
    expect(addWorkingDays('2026-05-09', 1)).toBe('2026-05-11');
    expect(addWorkingDays('2026-05-10', 10)).toBe('2026-05-22');
    // Monday + 10 working days = Monday two weeks later; across a month and a year end.
    expect(addWorkingDays('2026-05-11', 10)).toBe('2026-05-25');
    expect(addWorkingDays('2026-12-24', 10)).toBe('2027-01-07');
    expect(addWorkingDays('2026-05-08', 0)).toBe('2026-05-08');
  });

  it('a complaint is due 10 working days later, never on a weekend', () => {
    for (let d = 1; d <= 28; d++) {
      const day = `2026-02-${String(d).padStart(2, '0')}`;
      const due = complaintDeadline(day);
      expect([0, 6]).not.toContain(weekdayOf(due));
      // 10 working days span exactly two weeks from a working day (14 calendar days).
      if (![0, 6].includes(weekdayOf(day))) expect((Date.parse(due) - Date.parse(day)) / 86_400_000).toBe(14);
    }
  });
});

describe('fund arithmetic (fen)', () => {
  const fund = { totalFen: 100_000, plannedFen: 60_000, spentFen: 10_000 };

  it('left = total − planned − spent', () => {
    expect(fundLeft(fund)).toBe(30_000);
  });

  it('reserving takes from what is left; beyond it is refused with both amounts', () => {
    expect(reserveChange(fund, { reservedFen: 0, spentFen: 0 }, 30_000)).toEqual({
      ok: true,
      plannedDeltaFen: 30_000,
      spentDeltaFen: 0,
    });
    const refused = reserveChange(fund, { reservedFen: 0, spentFen: 0 }, 30_001);
    expect(refused).toMatchObject({ ok: false, availableFen: 30_000, needFen: 30_001 });
    expect(refused.ok ? '' : refused.message).toBe('事故预防费用余额不足：剩余 ¥300.00，本次需要 ¥300.01');
  });

  it('changing a reservation moves only the outstanding part (the spent part stays spent)', () => {
    // Item reserved 20 000, spent 5 000 → outstanding 15 000; to 8 000 → outstanding 3 000: −12 000.
    expect(reserveChange(fund, { reservedFen: 20_000, spentFen: 5_000 }, 8_000)).toMatchObject({
      ok: true,
      plannedDeltaFen: -12_000,
    });
    // Below what was spent: nothing outstanding any more.
    expect(reserveChange(fund, { reservedFen: 20_000, spentFen: 5_000 }, 1_000)).toMatchObject({
      plannedDeltaFen: -15_000,
    });
  });

  it('spending uses the item reservation first, then what is left, and never more', () => {
    // Covered by the reservation: planned −, spent +.
    expect(spendChange(fund, { reservedFen: 20_000, spentFen: 0 }, 15_000)).toEqual({
      ok: true,
      plannedDeltaFen: -15_000,
      spentDeltaFen: 15_000,
    });
    // Partly covered: 5 000 from the reservation, 25 000 from what is left.
    expect(spendChange(fund, { reservedFen: 20_000, spentFen: 15_000 }, 30_000)).toEqual({
      ok: true,
      plannedDeltaFen: -5_000,
      spentDeltaFen: 30_000,
    });
    const refused = spendChange(fund, { reservedFen: 20_000, spentFen: 15_000 }, 35_001);
    expect(refused).toMatchObject({ ok: false, availableFen: 35_000, needFen: 35_001 });
    expect(refused.ok ? '' : refused.message).toBe('事故预防费用余额不足：剩余 ¥350.00，本次需要 ¥350.01');
  });

  it('the message formats yuan with separators and never shows a negative balance', () => {
    expect(insufficientFundMessage(123_456_789, 200_000_000)).toBe(
      '事故预防费用余额不足：剩余 ¥1,234,567.89，本次需要 ¥2,000,000.00',
    );
    expect(insufficientFundMessage(-5, 1)).toBe('事故预防费用余额不足：剩余 ¥0.00，本次需要 ¥0.01');
  });
});

describe('service order state machine', () => {
  const allowed: [ServiceOrderStatus, ServiceOrderAction, ServiceOrderStatus][] = [
    ['DISPATCHED', 'accept', 'ACCEPTED'],
    ['DISPATCHED', 'reject', 'REJECTED'],
    ['DISPATCHED', 'cancel', 'CANCELLED'],
    ['ACCEPTED', 'start', 'IN_SERVICE'],
    ['ACCEPTED', 'cancel', 'CANCELLED'],
    ['IN_SERVICE', 'submit', 'SUBMITTED'],
    ['SUBMITTED', 'return', 'IN_SERVICE'],
    ['SUBMITTED', 'confirm', 'CONFIRMED'],
  ];

  it('allows exactly the listed transitions', () => {
    for (const from of SERVICE_ORDER_STATUSES)
      for (const action of SERVICE_ORDER_ACTIONS) {
        const hit = allowed.find(([f, a]) => f === from && a === action);
        expect(serviceOrderNext(from, action), `${from} ${action}`).toBe(hit ? hit[2] : null);
      }
  });

  it('offers each party only its own actions', () => {
    expect(serviceOrderActionsFor('DISPATCHED', 'org')).toEqual(['accept', 'reject']);
    expect(serviceOrderActionsFor('DISPATCHED', 'insurer')).toEqual(['cancel']);
    expect(serviceOrderActionsFor('DISPATCHED', 'enterprise')).toEqual([]);
    expect(serviceOrderActionsFor('SUBMITTED', 'enterprise')).toEqual(['return', 'confirm']);
    expect(serviceOrderActionsFor('SUBMITTED', 'org')).toEqual([]);
    expect(serviceOrderActionsFor('CLOSED', 'insurer')).toEqual([]);
  });
});

describe('numbers and forms', () => {
  it('record and order numbers', () => {
    expect(preventionSeqNo('PAZX202600000001')).toBe('YFPAZX202600000001');
    expect(policyNumberOfSeqNo('YFPAZX202600000001')).toBe('PAZX202600000001');
    expect(policyNumberOfSeqNo('PAZX202600000001')).toBeNull();
    expect(serviceOrderNumber('YFPAZX202600000001', 3)).toBe('YFPAZX202600000001-003');
  });

  it('the organisation code must pass the GB 32100 check', () => {
    expect(orgCodeField.safeParse('91320000134768025M').success).toBe(false);
    expect(orgCodeField.safeParse('91350100M000100Y43').success).toBe(true);
    expect(orgCodeField.safeParse(' 91350100m000100y43 ').data).toBe('91350100M000100Y43');
  });

  it('a hazard deadline cannot precede the service date', () => {
    const base = {
      version: 0,
      serviceDate: '2026-05-08',
      findings: '检查了车间',
      participants: [{ name: '张三', side: 'ORG' }],
    };
    const hazard = { description: '消防通道堵塞', level: 'MAJOR' };
    expect(
      serviceRecordForm.safeParse({ ...base, hazards: [{ ...hazard, deadline: '2026-05-07' }] }).success,
    ).toBe(false);
    expect(
      serviceRecordForm.safeParse({ ...base, hazards: [{ ...hazard, deadline: '2026-05-08' }] }).success,
    ).toBe(true);
  });
});

describe('plan item scheduled dates', () => {
  const period = { startDate: '2026-05-01', endDate: '2027-04-30' };

  it('allows at most `times` distinct dates, each within the policy period', () => {
    expect(scheduledDatesProblem([], 1, period)).toBeNull();
    expect(scheduledDatesProblem(['2026-05-01', '2027-04-30'], 2, period)).toBeNull();
    // A date picked twice counts once.
    expect(scheduledDatesProblem(['2026-06-01', '2026-06-01'], 1, period)).toBeNull();
    expect(scheduledDatesProblem(['2026-06-01', '2026-09-01', '2026-12-01'], 2, period)).toBe(
      '不能多于计划次数（2 次），已选 3 个日期',
    );
    expect(scheduledDatesProblem(['2027-05-01', '2026-06-01'], 4, period)).toBe(
      '2027-05-01 不在保险期间（2026-05-01 至 2027-04-30）内',
    );
    expect(scheduledDatesProblem(['2026-04-30'], 4, period)).toContain('不在保险期间');
  });

  it('the next date to dispatch skips the dates covered by live orders and those already past', () => {
    const item = { scheduledDates: ['2026-12-01', '2026-06-01', '2026-09-01'], liveOrders: 0 };
    expect(nextScheduledDate(item, '2026-05-20')).toBe('2026-06-01');
    expect(nextScheduledDate({ ...item, liveOrders: 1 }, '2026-05-20')).toBe('2026-09-01');
    expect(nextScheduledDate(item, '2026-06-02')).toBe('2026-09-01');
    expect(nextScheduledDate({ ...item, liveOrders: 3 }, '2026-05-20')).toBeNull();
    expect(nextScheduledDate({ scheduledDates: [], liveOrders: 0 }, '2026-05-20')).toBeNull();
  });

  it('a new item defaults to no dates; an update without them keeps the stored ones', () => {
    const base = { itemType: 'HAZARD_INSPECTION', frequency: 'ONCE', unitCostFen: 100, orgId: 1 };
    expect(planItemCreateForm.parse(base).scheduledDates).toEqual([]);
    expect(planItemUpdateForm.parse({ ...base, version: 1 }).scheduledDates).toBeUndefined();
    expect(planItemUpdateForm.parse({ ...base, version: 1, scheduledDates: [] }).scheduledDates).toEqual([]);
    expect(planItemCreateForm.safeParse({ ...base, scheduledDates: ['2026-02-30'] }).success).toBe(false);
  });
});

describe('serviceDateProblem: a performed service lies within the policy period, never in the future', () => {
  const period = { startDate: '2026-03-01', endDate: '2027-02-28' };
  it.each([
    ['the first day of the period', '2026-03-01', '2026-06-01', null],
    ['the last day of the period', '2027-02-28', '2027-03-05', null],
    [
      'the day before the policy starts',
      '2026-02-28',
      '2026-06-01',
      '须在保险期间（2026-03-01 至 2027-02-28）内',
    ],
    [
      'the day after the policy ends',
      '2027-03-01',
      '2027-03-05',
      '须在保险期间（2026-03-01 至 2027-02-28）内',
    ],
    ['a day still to come', '2026-06-02', '2026-06-01', '不能晚于今天'],
  ])('%s', (_, day, today, problem) => {
    expect(serviceDateProblem(day, period, today)).toBe(problem);
  });
});

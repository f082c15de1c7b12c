// Demo risk control (PIIBS_DEMO=1): one service organisation acting through the demo 'service' account, two
// experts, a service plan for the demo enterprise's issued policy, and service orders in several states
// (closed with a complaint, rectification under way, awaiting the enterprise's confirmation, in service,
// dispatched, rejected), so every risk-control journey can be walked at once. Made through the real services as
// the demo underwriter, organisation and enterprise. Idempotent: nothing is written once the demo organisation
// exists (or when there is no issued demo policy yet).
import { withUsccCheck } from '@piibs/shared';
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { policyStatusOn } from '@piibs/shared/policy';
import { preventionSeqNo } from '@piibs/shared/risk-control';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { policies, serviceOrgs } from '../db/schema.ts';
import { preventionViewerFor } from '../modules/risk-control/access.ts';
import { complain, rectifyHazard, saveRecord } from '../modules/risk-control/order-records.ts';
import {
  acceptOrder,
  confirmOrder,
  dispatchOrder,
  rejectOrder,
  startOrder,
  submitOrder,
} from '../modules/risk-control/orders.ts';
import { setOrgMembers } from '../modules/risk-control/org-members.ts';
import { createOrg } from '../modules/risk-control/orgs.ts';
import { createPerson } from '../modules/risk-control/persons.ts';
import { addPlanItem } from '../modules/risk-control/plans.ts';
import { demoEnterpriseUscc } from './base.ts';
import { demoUser } from './user.ts';

/** The demo service organisation's code (passes the GB 32100 check). */
export const DEMO_SERVICE_ORG_CODE = withUsccCheck('91321100MA1AQFW3K');

const userFor = demoUser;

const IP = '127.0.0.1';

/** Writes the demo organisation, experts, plan and orders once; answers how many orders it made. */
export async function seedDemoRiskControl(db: Db): Promise<number> {
  const [exists] = await db
    .select({ id: serviceOrgs.id })
    .from(serviceOrgs)
    .where(eq(serviceOrgs.code, DEMO_SERVICE_ORG_CODE));
  if (exists) return 0;
  const [uwUser, svcUser, entUser] = await Promise.all([
    userFor(db, 'underwriter'),
    userFor(db, 'service'),
    userFor(db, 'enterprise'),
  ]);
  const [policy] = await db
    .select()
    .from(policies)
    .where(eq(policies.holderUscc, await demoEnterpriseUscc(db)))
    .orderBy(desc(policies.id))
    .limit(1);
  if (!uwUser || !svcUser || !entUser || !policy || policyStatusOn(policy) === 'EXPIRED') return 0;

  const uw = await preventionViewerFor(db, uwUser, IP);
  const org = await createOrg(db, uw, {
    code: DEMO_SERVICE_ORG_CODE,
    name: '镇江安泰安全技术服务有限公司',
    address: '江苏省镇江市京口区解放路 168 号',
    qualifications: [
      {
        name: '安全评价机构资质',
        certNo: 'APJ-（苏）-2024-018',
        level: '乙级',
        validFrom: '2024-03-01',
        validTo: '2029-02-28',
      },
      {
        name: '安全生产培训机构备案',
        certNo: 'JSAQPX-2023-0112',
        level: null,
        validFrom: '2023-06-01',
        validTo: '2028-05-31',
      },
    ],
    regions: ['321100'],
    industries: ['B', 'C', 'D', 'E', 'F', 'G'],
    contacts: [
      { name: '周建华', phone: '13952810001', position: '技术负责人' },
      { name: '孙丽', phone: '0511-85550001', position: '客服专员' },
    ],
    enabled: true,
    note: '演示数据',
  });
  await setOrgMembers(db, uw, org.id, [svcUser.id]);
  const svc = await preventionViewerFor(db, svcUser, IP);
  const ent = await preventionViewerFor(db, entUser, IP);

  const expert = (name: string, specialty: string, certificateNo: string, phone: string, title: string) =>
    createPerson(db, svc, {
      orgId: org.id,
      name,
      specialty,
      title,
      expert: true,
      certificateName: '注册安全工程师',
      certificateNo,
      certificateValidFrom: '2024-01-01',
      certificateValidTo: '2029-12-31',
      phone,
      enabled: true,
      note: null,
    });
  const wang = await expert('王振国', '机械安全与隐患排查', 'ZA2024320018', '13952810011', '高级工程师');
  const li = await expert('李慧', '安全培训与应急管理', 'ZA2023320207', '13952810012', '工程师');

  const seqNo = preventionSeqNo(policy.number);
  const total = policy.preventionFeeFen;
  const share = (percent: number) => Math.floor((total * percent) / 100);
  const item = async (
    itemType: 'HAZARD_INSPECTION' | 'SAFETY_TRAINING' | 'EMERGENCY_DRILL' | 'EXPERT_CONSULTATION',
    frequency: 'QUARTERLY' | 'SEMIANNUAL' | 'ONCE',
    unitCostFen: number,
    content: string,
    personIds: number[],
  ) => {
    const plan = await addPlanItem(db, uw, seqNo, {
      itemType,
      frequency,
      unitCostFen,
      content,
      orgId: org.id,
      personIds,
      scheduledDates: [],
    });
    return plan.items[plan.items.length - 1]!.id;
  };
  const inspection = await item(
    'HAZARD_INSPECTION',
    'QUARTERLY',
    share(8),
    '生产车间、仓库、配电房、消防设施隐患排查',
    [wang.id],
  );
  const training = await item('SAFETY_TRAINING', 'SEMIANNUAL', share(10), '全员安全生产教育培训', [li.id]);
  const drill = await item('EMERGENCY_DRILL', 'ONCE', share(15), '火灾事故应急疏散演练', [li.id, wang.id]);
  const consulting = await item('EXPERT_CONSULTATION', 'ONCE', share(10), '安全生产标准化专家咨询', [
    wang.id,
  ]);

  const today = shanghaiToday();
  const first = policy.startDate > today ? policy.startDate : today;
  const on = (days: number) => {
    const d = addDays(first, days);
    return d > policy.endDate ? policy.endDate : d;
  };
  const dispatch = (planItemId: number, days: number, note: string) =>
    dispatchOrder(db, uw, seqNo, { planItemId, scheduledDate: on(days), note });
  const participants = [
    { name: '王振国', side: 'ORG' as const, position: '高级工程师' },
    { name: '陈晓梅', side: 'ENTERPRISE' as const, position: '安全主管' },
  ];
  /** Accepts, starts, records and (unless told otherwise) submits an order as the organisation. */
  const perform = async (
    ref: string,
    findings: string,
    hazards: {
      description: string;
      location: string;
      level: 'GENERAL' | 'SERIOUS' | 'MAJOR';
      measure: string;
      days: number;
    }[],
    submit = true,
  ) => {
    let o = await acceptOrder(db, svc, ref, 0);
    o = await startOrder(db, svc, ref, o.version);
    o = await saveRecord(db, svc, ref, {
      version: o.version,
      serviceDate: today,
      address: '江苏省镇江市润州区南徐大道 88 号',
      findings,
      hazards: hazards.map((h) => ({ ...h, deadline: addDays(today, h.days) })),
      participants,
    });
    return submit ? submitOrder(db, svc, ref, o.version) : o;
  };

  // 1. Hazard inspection: confirmed and rated, one of two hazards rectified — follow-up under way.
  const o1 = await dispatch(inspection, 1, '第一季度隐患排查');
  let d1 = await perform(
    o1.number,
    '对生产车间、原料仓库、配电房及消防设施进行了全面排查，共发现隐患 2 处，已现场告知企业安全负责人。',
    [
      {
        description: '二号车间消防通道堆放物料，通道宽度不足',
        location: '二号车间',
        level: 'SERIOUS',
        measure: '立即清理通道，划线标识，禁止占用',
        days: 7,
      },
      {
        description: '配电房配电箱未上锁，警示标识缺失',
        location: '配电房',
        level: 'GENERAL',
        measure: '加锁并张贴“当心触电”警示标识',
        days: 15,
      },
    ],
  );
  d1 = await confirmOrder(db, ent, o1.number, {
    version: d1.version,
    satisfaction: 5,
    comment: '排查细致，建议实用',
  });
  await rectifyHazard(db, svc, o1.number, d1.hazards[1]!.id, {
    version: d1.version,
    rectifiedDate: today,
    note: '已加锁并张贴警示标识，复查合格',
  });

  // 2. Safety training: confirmed with no hazard (closed), rated, with an open complaint.
  const o2 = await dispatch(training, 2, '上半年全员安全培训');
  const d2 = await perform(o2.number, '开展全员安全生产教育培训 1 场，参训 62 人，考试合格率 100%。', []);
  await confirmOrder(db, ent, o2.number, { version: d2.version, satisfaction: 4, comment: '内容充实' });
  await complain(db, ent, o2.number, { content: '培训课件未按约定提供电子版，请尽快补发。' });

  // 3. Emergency drill: submitted, waiting for the enterprise's confirmation.
  const o3 = await dispatch(drill, 3, '火灾应急疏散演练');
  await perform(o3.number, '组织火灾事故应急疏散演练，全员 4 分 30 秒完成疏散，发现问题 1 处。', [
    {
      description: '三楼应急照明灯故障',
      location: '办公楼三楼',
      level: 'GENERAL',
      measure: '更换应急照明灯并每月检测',
      days: 10,
    },
  ]);

  // 4. Expert consultation: in service, the record saved but not yet submitted.
  const o4 = await dispatch(consulting, 4, '安全生产标准化咨询');
  await perform(o4.number, '专家对照标准化评定标准逐项检查，正在整理咨询意见。', [], false);

  // 5. Second hazard inspection: dispatched, for the organisation to accept.
  await dispatch(inspection, 30, '第二季度隐患排查');

  // 6. Second training: rejected by the organisation (the plan keeps the reservation for a new dispatch).
  const o6 = await dispatch(training, 5, '下半年全员安全培训');
  await rejectOrder(db, svc, o6.number, 0, '计划日期与企业停产检修时间冲突，请改期后重新派单');

  return 6;
}

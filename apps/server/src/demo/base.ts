// Demo data (PIIBS_DEMO=1): the organisation and one account per journey, all with the password Demo@2026,
// and customers in every review state.
import { ROLE_CODES, withUsccCheck } from '@piibs/shared';
import type { ReviewDecision, ReviewStatus } from '@piibs/shared/review';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customers, reviewTasks, users } from '../db/schema.ts';
import { taskTitle } from '../modules/customers/service.ts';
import { initialise, isInitialized, type NewUser } from '../modules/init/service.ts';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_ORGANISATION = '示例财产保险股份有限公司';

/**
 * The demo policyholder enterprise (Zhenjiang, 321100); its code passes the GB 32100 check. A database seeded by an
 * earlier version keeps the code it was given then (91321100MA1XXXXXX4): see demoEnterpriseUscc.
 */
export const DEMO_ENTERPRISE = Object.freeze({
  uscc: withUsccCheck('91321100MA1Y7HBK3'),
  name: '镇江示例安全科技有限公司',
});

/** The demo enterprise's credit code as this database holds it (its account's), else the current one. */
export async function demoEnterpriseUscc(db: Pick<Db, 'select'>): Promise<string> {
  const [row] = await db.select({ uscc: users.uscc }).from(users).where(eq(users.username, 'enterprise'));
  return row?.uscc ?? DEMO_ENTERPRISE.uscc;
}

export const DEMO_USERS: readonly NewUser[] = Object.freeze([
  {
    username: 'underwriter',
    nickName: '王敏',
    password: DEMO_PASSWORD,
    channel: 'staff',
    roles: [ROLE_CODES.underwriter],
  },
  {
    username: 'agent',
    nickName: '李强',
    password: DEMO_PASSWORD,
    channel: 'agent',
    roles: [ROLE_CODES.agent],
  },
  {
    username: 'enterprise',
    nickName: DEMO_ENTERPRISE.name,
    password: DEMO_PASSWORD,
    channel: 'enterprise',
    roles: [ROLE_CODES.enterprise],
    uscc: DEMO_ENTERPRISE.uscc,
  },
  {
    username: 'service',
    nickName: '陈静',
    password: DEMO_PASSWORD,
    channel: 'service',
    roles: [ROLE_CODES.service],
  },
]);

/** Initialises the system with the demo organisation and accounts unless it is initialised already. */
export async function seedDemo(db: Db): Promise<boolean> {
  if (await isInitialized(db)) return false;
  try {
    await initialise(
      db,
      {
        organisationName: DEMO_ORGANISATION,
        username: 'admin',
        password: DEMO_PASSWORD,
        nickName: '系统管理员',
      },
      { extraUsers: [...DEMO_USERS] },
    );
    return true;
  } catch (err) {
    // Another instance seeded it first.
    if ((err as { status?: number }).status === 409) return false;
    throw err;
  }
}

interface DemoCustomer {
  uscc: string;
  name: string;
  industrySection: string;
  industryDivision: string;
  region: string;
  address: string;
  legalRepresentative: string;
  contactName: string;
  phone: string;
  headcount: number;
  /** Who entered it: the enterprise itself, the demo agent (who then owns it), or an import (nobody). */
  by: 'enterprise' | 'agent' | null;
  status: ReviewStatus;
  opinion?: string;
}

/**
 * Customers in every review state: the demo enterprise's own record (approved, so it can apply at once); three
 * clients of the demo agent (approved, pending with an open task for the underwriter, returned with an
 * opinion); one rejected legacy record.
 */
export const DEMO_CUSTOMERS: readonly DemoCustomer[] = Object.freeze([
  {
    uscc: DEMO_ENTERPRISE.uscc,
    name: DEMO_ENTERPRISE.name,
    industrySection: 'C',
    industryDivision: '34',
    region: '321111',
    address: '江苏省镇江市润州区南徐大道 88 号',
    legalRepresentative: '王建国',
    contactName: '陈晓梅',
    phone: '13951280001',
    headcount: 86,
    by: 'enterprise',
    status: 'approved',
  },
  {
    uscc: withUsccCheck('91321102MA1W8K3P2'),
    name: '镇江润扬机械制造有限公司',
    industrySection: 'C',
    industryDivision: '34',
    region: '321102',
    address: '江苏省镇江市京口区学府路 301 号',
    legalRepresentative: '刘志强',
    contactName: '赵敏',
    phone: '0511-85551234',
    headcount: 120,
    by: 'agent',
    status: 'approved',
  },
  {
    uscc: withUsccCheck('91321181MA1T4HQ5X'),
    name: '丹阳市华宇五金工具有限公司',
    industrySection: 'C',
    industryDivision: '33',
    region: '321181',
    address: '江苏省丹阳市开发区齐梁路 19 号',
    legalRepresentative: '孙德华',
    contactName: '周丽',
    phone: '13852900002',
    headcount: 45,
    by: 'agent',
    status: 'pending',
  },
  {
    uscc: withUsccCheck('91321183MA1R2LNB6'),
    name: '句容市恒通仓储物流有限公司',
    industrySection: 'G',
    industryDivision: '59',
    region: '321183',
    address: '江苏省句容市华阳街道宝华路 66 号',
    legalRepresentative: '吴海涛',
    contactName: '郑强',
    phone: '13775300003',
    headcount: 32,
    by: 'agent',
    status: 'returned',
    opinion: '营业执照登记地址与填写地址不一致，请核实后重新提交',
  },
  {
    uscc: withUsccCheck('91321182MA1PEY0U8'),
    name: '扬中市江洲船舶配件有限公司',
    industrySection: 'C',
    industryDivision: '37',
    region: '321182',
    address: '江苏省扬中市新坝镇港口路 8 号',
    legalRepresentative: '钱卫东',
    contactName: '冯静',
    phone: '13606100004',
    headcount: 58,
    by: null,
    status: 'rejected',
    opinion: '该企业已被列入安全生产失信联合惩戒名单，暂不予承保',
  },
]);

const DECISION: Partial<Record<ReviewStatus, ReviewDecision>> = {
  approved: 'approve',
  returned: 'return',
  rejected: 'reject',
};

/**
 * Writes the demo customers that are missing (by code) with their review tasks; answers how many it wrote.
 * Idempotent, and safe when two instances start together (advisory lock).
 */
export async function seedDemoCustomers(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72177004)`);
    const people = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.username, ['enterprise', 'agent', 'underwriter']));
    const idOf = (name: string) => people.find((p) => p.username === name)?.id ?? null;
    const underwriter = idOf('underwriter');
    const enterpriseUscc = await demoEnterpriseUscc(tx);
    let written = 0;
    for (const [i, c] of DEMO_CUSTOMERS.entries()) {
      const { by, status, opinion, ...given } = c;
      const fields = given.uscc === DEMO_ENTERPRISE.uscc ? { ...given, uscc: enterpriseUscc } : given;
      const author = by ? idOf(by) : null;
      const decided = status !== 'pending';
      const [row] = await tx
        .insert(customers)
        .values({
          ...fields,
          ownerId: by === 'agent' ? author : null,
          createdBy: author,
          reviewStatus: status,
          reviewOpinion: opinion ?? null,
          reviewedAt: decided ? sql`now() - interval '1 day'` : null,
        })
        .onConflictDoNothing()
        .returning({ id: customers.id });
      if (!row) continue;
      written++;
      const decision = DECISION[status];
      await tx.insert(reviewTasks).values({
        kind: 'customer',
        subjectId: row.id,
        title: taskTitle(fields),
        status: decision ? 'done' : 'open',
        submittedBy: author,
        decision: decision ?? null,
        opinion: opinion ?? null,
        decidedBy: decision ? underwriter : null,
        decidedAt: decision ? sql`now() - interval '1 day'` : null,
        // Waiting a while, so the queue shows an age.
        createdAt: sql`now() - make_interval(hours => ${26 + i})`,
      });
    }
    return written;
  });
}

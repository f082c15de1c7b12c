// The volume data set (`npm run seed:volume`): 100,000 applications for measuring the API at realistic size.
// Deterministic: every attribute of row i comes from md5('piibs-volume:<i>'), dates are fixed (2026), so two
// databases seeded from the same starting point hold the same rows. Set-based: one INSERT … SELECT over
// generate_series per table, in one transaction (nothing is left half-made), well under a minute.
//
// What it makes, all under accounts named vol_*:
//   6 branch departments under the organisation, 60 agents spread over them, 5,000 approved customers (each
//   owned by an agent), the first 300 with an enterprise account (role 17) — the larger clients: 30% of the
//   applications are theirs, so an enterprise has a few dozen policies, as an agent has hundreds;
//   the applications — AZX (work safety, 80%: priced on the customer's industry and headcount),
//   JZSG (construction, 15%) and LYBZ (guarantee, 5%) with real quotes from the active rate tables — in
//   DRAFT 20% · PENDING_REVIEW 10% (open review task) · RETURNED 7% · DECLINED 5% · ISSUED 25% · PAYMENT_EXPIRED
//   18% (approved, expired payment order) · CANCELLED 15%, each with its timeline (application_event) and
//   review task.
// The ISSUED ones as payment and issuance leave them (payments/settle.ts, policies/issue.ts): paid through the
// sandbox gateway within the order's 24 hours and learnt by query, as the demo pays (the order PAID with its
// charge, the gateway's sandbox_charge, one payment), then the policy at once: its number ('P' + product prefix
// + year + serial of policy_number_seq), the covers the quote priced (policyCoversOf), premium and prevention fee
// in fen as quoted, a verification code, the pay and issue events; its stored status as the hourly pass
// (policies/expiry.ts) leaves it on the day of the seed. No co-insurers or named insured lists (the
// applications have none); prevention funds are made on first use (risk-control/plans.ts lockFund), as for any
// policy. Not written: the e-policy PDF, drawn and signed on its first download (storedPolicyDocument: signing one
// per row would take hours), and, as for the other states, the notifications and per-row audit entries.
// Idempotent: system_setting 'seed.volume' records the run; a second run does nothing.
import { ROLE_CODES, usccSerial, withUsccCheck } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import { paymentActor, SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { type PolicyCoverage, policyCoversOf } from '@piibs/shared/policy';
import type { QuoteResult } from '@piibs/shared/product';
import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customers, departments, products, roles, systemSettings, userRoles, users } from '../db/schema.ts';
import { writeAudit } from '../lib/audit.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';
import type { CustomerViewer } from '../modules/customers/access.ts';
import { isInitialized } from '../modules/init/service.ts';
import { DEFAULT_MERCHANT_ID } from '../modules/payments/settings.ts';
import { CODE_ALPHABET } from '../modules/policies/issue.ts';
import { quoteProduct } from '../modules/products/quote.ts';
import { getProduct, numberPrefix } from '../modules/products/service.ts';
import { DEMO_PASSWORD } from './base.ts';

export const VOLUME_KEY = 'seed.volume';

export interface VolumeOptions {
  applications?: number;
  customers?: number;
  agents?: number;
  /** Customers 1..enterprises get an enterprise account. */
  enterprises?: number;
  /** The sandbox gateway's merchant id the issued ones were paid under (config.business.merchantId). */
  merchantId?: string;
  log?: (line: string) => void;
}

export interface VolumeResult {
  /** False when the data set was there already. */
  created: boolean;
  applications: number;
  /** Issued policies; null: the set was made before it issued any. */
  policies: number | null;
  ms: number;
}

/** What the 'seed.volume' setting records. */
interface VolumeMarker {
  applications: number;
  /** Absent in a set made before it issued policies. */
  policies?: number;
}

const BRANCHES = ['京口支公司', '润州支公司', '丹徒支公司', '丹阳支公司', '句容支公司', '扬中支公司'];
/** Industry (section, division) and headcount grid of the work-safety quotes. */
const INDUSTRIES: [string, string][] = [
  ['C', '34'],
  ['C', '26'],
  ['C', '31'],
  ['C', '13'],
  ['C', '18'],
  ['C', '39'],
  ['B', '08'],
  ['D', '44'],
  ['E', '48'],
  ['F', '51'],
  ['G', '54'],
  ['H', '61'],
];
const HEADCOUNTS = [8, 15, 30, 50, 120, 300];
const PROJECT_COSTS_YUAN = [3_000_000, 20_000_000, 80_000_000, 300_000_000];
const GUARANTEES_YUAN = [500_000, 2_000_000, 5_000_000, 10_000_000];
const WORDS = [
  '安达',
  '恒通',
  '金山',
  '润扬',
  '华东',
  '长江',
  '宝华',
  '茅山',
  '南山',
  '宏图',
  '聚能',
  '天成',
];

interface Template {
  productId: number;
  prefix: string;
  /** Of the policy number, as issuing makes it: 'P' + the product's prefix (PAZX…). */
  policyPrefix: string;
  productClass: string;
  quote: QuoteResult;
  /** What a policy of this quote covers, as issuing stores it. */
  covers: PolicyCoverage[];
}

/** Share (%) of the applications made by the customers with an enterprise account. */
const ENTERPRISE_SHARE = 30;

/** One array parameter (a JS array in drizzle's sql template would become a list of parameters). */
const pgArray = (ids: number[]) => `{${ids.join(',')}}`;

/** A valid GB 32100 code for customer n (Zhenjiang, body made of the serial). */
function usccOf(n: number): string {
  return withUsccCheck(`91321100MA${usccSerial(n, 7)}`);
}

async function quoteTemplates(db: Db, viewer: CustomerViewer): Promise<Template[]> {
  const rows = await db
    .select({ id: products.id, code: products.code, productClass: products.productClass })
    .from(products)
    .where(inArray(products.code, ['AZX_GM_2025', 'JZSG_AZX_2025', 'LYBZ_2025']));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const covers = new Map(
    await Promise.all(rows.map(async (r) => [r.id, (await getProduct(db, r.id)).coverages] as const)),
  );
  const caller = { viewer, canSeeDrafts: false };
  const make = async (code: string, input: Parameters<typeof quoteProduct>[3]): Promise<Template> => {
    const p = byCode.get(code);
    if (!p) throw new Error(`seed-volume: product ${code} is missing (start the server once first)`);
    const quote = await quoteProduct(db, caller, p.id, input);
    return {
      productId: p.id,
      prefix: numberPrefix(code, 'TB'),
      policyPrefix: `P${numberPrefix(code, 'X')}`,
      productClass: p.productClass,
      quote,
      covers: policyCoversOf(covers.get(p.id) ?? [], quote),
    };
  };
  const out: Template[] = [];
  // Work safety first, indexed industry × headcount (the customer's own), then construction, then guarantee.
  for (const [section, division] of INDUSTRIES)
    for (const headcount of HEADCOUNTS)
      out.push(
        await make('AZX_GM_2025', {
          industrySection: section,
          industryDivision: division,
          headcount,
          highRisk: false,
        }),
      );
  for (const cost of PROJECT_COSTS_YUAN)
    for (const highRisk of [false, true])
      out.push(await make('JZSG_AZX_2025', { projectCostFen: cost * 100, highRisk }));
  for (const amount of GUARANTEES_YUAN)
    out.push(await make('LYBZ_2025', { guaranteeAmountFen: amount * 100, highRisk: false }));
  return out;
}

/** The recorded volume run ({ applications, policies, … }), or undefined before the first. */
export async function volumeSeeded(db: Db): Promise<VolumeMarker | undefined> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, VOLUME_KEY));
  return row?.value as VolumeMarker | undefined;
}

const resultOf = (marker: VolumeMarker | undefined, created: boolean, started: number): VolumeResult => ({
  created,
  applications: marker?.applications ?? 0,
  policies: marker?.policies ?? null,
  ms: Date.now() - started,
});

/** Writes the volume data set unless it is there already. The system must be initialised (products seeded). */
export async function seedVolume(db: Db, opts: VolumeOptions = {}): Promise<VolumeResult> {
  const n = opts.applications ?? 100_000;
  const nCustomers = opts.customers ?? 5_000;
  const nAgents = opts.agents ?? 60;
  const nEnterprises = Math.min(opts.enterprises ?? 300, nCustomers);
  const merchantId = opts.merchantId ?? DEFAULT_MERCHANT_ID;
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const existing = await volumeSeeded(db);
  if (existing) return resultOf(existing, false, started);
  if (!(await isInitialized(db))) throw new Error('seed-volume: the system is not initialised');

  const [admin] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.code, ROLE_CODES.admin))
    .orderBy(asc(users.id))
    .limit(1);
  if (!admin) throw new Error('seed-volume: no administrator account');
  const [underwriter] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.code, ROLE_CODES.underwriter))
    .orderBy(asc(users.id))
    .limit(1);
  const decider = underwriter ?? admin;
  const viewer: CustomerViewer = {
    user: { ...admin, nickName: admin.username, roles: [ROLE_CODES.admin] } as RequestUser,
    uscc: null,
    isEnterprise: false,
    isAgent: false,
    staffScope: { all: true },
  };
  let lapStart = Date.now();
  const lap = (what: string) => {
    log(`  ${what}: ${Date.now() - lapStart} ms`);
    lapStart = Date.now();
  };
  const templates = await quoteTemplates(db, viewer);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  lap(`${templates.length} quotes`);

  await db.transaction(async (tx) => {
    // One seeding at a time; the loser of a race finds the marker and stops.
    await tx.execute(sql`select pg_advisory_xact_lock(72177002)`);
    const [again] = await tx.select().from(systemSettings).where(eq(systemSettings.key, VOLUME_KEY));
    if (again) return;
    // A bulk load of rows consistent by construction (every key is an id just written or read): where allowed
    // (a superuser, as on the embedded server) the per-row foreign-key checks and triggers are skipped for this
    // transaction, a third of the time. Elsewhere they run.
    await tx.execute(sql`savepoint bulk`);
    try {
      await tx.execute(sql`set local session_replication_role = replica`);
    } catch {
      await tx.execute(sql`rollback to savepoint bulk`);
    }

    const [root] = await tx
      .select({ id: departments.id })
      .from(departments)
      .where(isNull(departments.parentId))
      .orderBy(asc(departments.id))
      .limit(1);
    const branchIds = (
      await tx
        .insert(departments)
        .values(BRANCHES.map((name, i) => ({ name, parentId: root?.id ?? null, sort: i + 1 })))
        .returning({ id: departments.id })
    ).map((d) => d.id);

    const [agentRole] = await tx.select().from(roles).where(eq(roles.code, ROLE_CODES.agent));
    const [entRole] = await tx.select().from(roles).where(eq(roles.code, ROLE_CODES.enterprise));
    if (!agentRole || !entRole) throw new Error('seed-volume: the agent and enterprise roles are missing');
    const agentIds = (
      await tx
        .insert(users)
        .values(
          Array.from({ length: nAgents }, (_, i) => ({
            username: `vol_agent_${String(i + 1).padStart(3, '0')}`,
            nickName: `代理人${String(i + 1).padStart(3, '0')}`,
            passwordHash,
            channel: 'agent',
            deptId: branchIds[i % branchIds.length]!,
            phone: `139${String(10_000_000 + i).slice(-8)}`,
          })),
        )
        .returning({ id: users.id })
    ).map((u) => u.id);

    // Customers: agent (c-1) % agents owns customer c; industry and headcount follow the quote grid.
    const customerIds: number[] = [];
    for (let from = 1; from <= nCustomers; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, nCustomers - from + 1) }, (_, k) => {
        const c = from + k;
        const [section, division] = INDUSTRIES[c % INDUSTRIES.length]!;
        const agent = agentIds[(c - 1) % agentIds.length]!;
        return {
          uscc: usccOf(c),
          name: `镇江${WORDS[c % WORDS.length]}${WORDS[Math.floor(c / 12) % WORDS.length]}${c}号科技有限公司`,
          industrySection: section,
          industryDivision: division,
          region: '321102',
          address: `江苏省镇江市京口区学府路 ${c} 号`,
          legalRepresentative: '张三',
          contactName: '李四',
          phone: `138${String(10_000_000 + c).slice(-8)}`,
          headcount: HEADCOUNTS[Math.floor(c / INDUSTRIES.length) % HEADCOUNTS.length]!,
          ownerId: agent,
          createdBy: agent,
          reviewStatus: 'approved',
          reviewedAt: new Date(Date.UTC(2025, 11, 1) + c * 60_000),
          createdAt: new Date(Date.UTC(2025, 10, 1) + c * 60_000),
          updatedAt: new Date(Date.UTC(2025, 11, 1) + c * 60_000),
        };
      });
      const ids = await tx.insert(customers).values(batch).returning({ id: customers.id });
      customerIds.push(...ids.map((r) => r.id));
    }
    const entIds = (
      await tx
        .insert(users)
        .values(
          Array.from({ length: nEnterprises }, (_, i) => ({
            username: `vol_ent_${String(i + 1).padStart(4, '0')}`,
            nickName: `企业用户${i + 1}`,
            passwordHash,
            channel: 'enterprise',
            uscc: usccOf(i + 1),
          })),
        )
        .returning({ id: users.id })
    ).map((u) => u.id);
    await tx
      .insert(userRoles)
      .values([
        ...agentIds.map((userId) => ({ userId, roleId: agentRole.id })),
        ...entIds.map((userId) => ({ userId, roleId: entRole.id })),
      ]);

    lap(`${nAgents + nEnterprises} accounts, ${nCustomers} customers`);
    const [{ maxId } = { maxId: 0 }] = (
      await tx.execute<{ maxId: number }>(
        sql`select coalesce(max(id), 0)::bigint as "maxId" from application`,
      )
    ).rows;
    const nWork = INDUSTRIES.length * HEADCOUNTS.length;
    const nProject = PROJECT_COSTS_YUAN.length * 2;
    const nGuarantee = GUARANTEES_YUAN.length;
    // The quotes as rows (one per template), so each application copies its template's fields.
    await tx.execute(sql`
      create temporary table vol_template on commit drop as
      select (e.ord - 1)::int as idx, e.t->>'prefix' as prefix, (e.t->>'productId')::bigint as product_id,
        e.t->>'productClass' = 'construction' as construction, e.t->'quote' as quote,
        (e.t->'quote') - 'quotedAt' as quote_key, e.t->>'policyPrefix' as policy_prefix, e.t->'covers' as covers,
        e.t->'quote'->'input' as input, (e.t->'quote'->>'rateTableId')::bigint as rate_table_id,
        (e.t->'quote'->>'premiumFen')::bigint as premium_fen,
        (e.t->'quote'->>'preventionFeeFen')::bigint as prevention_fee_fen,
        (e.t->'quote'->>'preventionRatio')::int as prevention_ratio
      from jsonb_array_elements(${JSON.stringify(templates)}::jsonb) with ordinality as e(t, ord)`);
    // r1…r8: independent 32-bit draws per row. Customer: one of the enterprises for ENTERPRISE_SHARE of the rows,
    // else any. Template: the customer's own grid cell (work safety), else by draw. Numbers in row order from the
    // application number sequence. The issued ones were paid 1 minute to 23 hours after the approval (within the
    // order's 24) and issued 2 seconds after the payment: the application's last change.
    await tx.execute(sql`
      with r as (
        select i,
          ('x' || substr(h1, 1, 8))::bit(32)::bigint as r1, ('x' || substr(h1, 9, 8))::bit(32)::bigint as r2,
          ('x' || substr(h1, 17, 8))::bit(32)::bigint as r3, ('x' || substr(h1, 25, 8))::bit(32)::bigint as r4,
          ('x' || substr(h2, 1, 8))::bit(32)::bigint as r5, ('x' || substr(h2, 9, 8))::bit(32)::bigint as r6,
          ('x' || substr(h2, 17, 8))::bit(32)::bigint as r7, ('x' || substr(h2, 25, 8))::bit(32)::bigint as r8
        from generate_series(1, ${n}::int) as i,
          lateral (select md5('piibs-volume:' || i) as h1, md5('piibs-volume:' || i || ':2') as h2) as h
      ), s as (
        select i, r2, r6, r7, r8,
          case when r3 % 100 < ${nEnterprises > 0 ? ENTERPRISE_SHARE : 0} then 1 + (r3 / 100) % ${Math.max(nEnterprises, 1)}
               else 1 + (r3 / 100) % ${nCustomers} end as c,
          case when r1 % 100 < 20 then 'DRAFT' when r1 % 100 < 30 then 'PENDING_REVIEW'
               when r1 % 100 < 37 then 'RETURNED' when r1 % 100 < 42 then 'DECLINED'
               when r1 % 100 < 67 then 'ISSUED' when r1 % 100 < 85 then 'PAYMENT_EXPIRED' else 'CANCELLED' end
            as status,
          r4,
          r2 % 2 = 0 as by_enterprise,
          timestamptz '2026-01-01 00:00:00+08' + (r5 % (300 * 86400)) * interval '1 second' as created_at
        from r
      ), t as (
        select s.*,
          case when r4 % 100 < 80
               then (c % ${INDUSTRIES.length}) * ${HEADCOUNTS.length} + (c / ${INDUSTRIES.length}) % ${HEADCOUNTS.length}
               when r4 % 100 < 95 then ${nWork} + (r4 / 100) % ${nProject}
               else ${nWork + nProject} + (r4 / 100) % ${nGuarantee} end as pick,
          (${pgArray(agentIds)}::bigint[])[1 + (c - 1) % ${nAgents}] as agent,
          case when c <= ${nEnterprises} then (${pgArray(entIds)}::bigint[])[c] end as ent,
          (${pgArray(customerIds)}::bigint[])[c] as customer_id,
          case when status in ('DRAFT', 'CANCELLED') then null
               else created_at + (r6 % (72 * 3600)) * interval '1 second' end as submitted_at
        from s
      ), ordered as (
        select t.*, tp.*,
          case when t.status in ('RETURNED', 'DECLINED', 'PAYMENT_EXPIRED', 'ISSUED')
               then t.submitted_at + (t.r7 % (48 * 3600)) * interval '1 second' end as decided_at,
          t.by_enterprise and t.ent is not null and not tp.construction as enterprise_made,
          (t.created_at at time zone 'Asia/Shanghai')::date + 1 + (t.r8 % 30)::int as start_date,
          cu.name as customer_name, cu.uscc, cu.address, cu.contact_name, cu.phone, cu.owner_id as applicant_owner
        from t join vol_template tp on tp.idx = t.pick join customer cu on cu.id = t.customer_id
        order by i
      )
      insert into application (number, product_id, channel, policyholder_type, customer_id, insured_name,
        insured_uscc, insured_address, contact_name, contact_phone, start_date, end_date, industry_section,
        industry_division, headcount, per_person_limit_fen, coverages, factors, guarantee_amount_fen,
        project_name, project_address, project_cost_fen, contractor, high_risk, quote, rate_table_id,
        premium_fen, prevention_ratio, prevention_fee_fen, agent_id, owner_id, status, review_opinion,
        submitted_at, decided_at, version, created_at, updated_at, search_key, applicant_owner_id)
      select
        number,
        product_id,
        case when construction then 'project' when enterprise_made then 'enterprise' else 'agent' end,
        1, customer_id, customer_name, uscc, address, contact_name, phone,
        start_date, start_date + interval '1 year' - interval '1 day',
        input->>'industrySection', input->>'industryDivision',
        (input->>'headcount')::int, (input->>'perPersonLimitFen')::bigint,
        input->'coverages', input->'factors', (input->>'guaranteeAmountFen')::bigint,
        case when construction then customer_name || '厂区扩建工程' end,
        case when construction then address end,
        (input->>'projectCostFen')::bigint,
        case when construction then customer_name end,
        (input->>'highRisk')::boolean,
        jsonb_set(quote, '{quotedAt}', to_jsonb(coalesce(submitted_at, created_at))),
        rate_table_id, premium_fen, prevention_ratio, prevention_fee_fen,
        case when enterprise_made then null else agent end,
        case when enterprise_made then ent else agent end,
        status,
        case status when 'RETURNED' then '参保人数与社保缴纳人数不一致，请核实后重新提交'
                    when 'DECLINED' then '近三年发生较大生产安全事故，暂不予承保' end,
        submitted_at, decided_at,
        case status when 'DRAFT' then 1 when 'PENDING_REVIEW' then 2 when 'CANCELLED' then 2
                    when 'PAYMENT_EXPIRED' then 4 when 'ISSUED' then 5 else 3 end,
        created_at,
        case status when 'DRAFT' then created_at + (r6 % (240 * 3600)) * interval '1 second'
                    when 'CANCELLED' then created_at + (r6 % (240 * 3600)) * interval '1 second'
                    when 'PENDING_REVIEW' then submitted_at
                    when 'PAYMENT_EXPIRED' then decided_at + interval '24 hours'
                    when 'ISSUED' then decided_at + (60 + (r2 / 2) % (23 * 3600)) * interval '1 second'
                      + interval '2 seconds'
                    else decided_at end,
        -- As the row trigger writes it (migration 0023), which may be skipped here: the insured is the applicant.
        piibs_application_search_key(number, customer_name, customer_name),
        applicant_owner -- as the row trigger writes it (migration 0026)
      from (select ordered.*, prefix || '2026' || lpad(nextval('application_number_seq')::text, 6, '0') as number
        from ordered) as ordered`);
    lap(`${n} applications`);
    const fresh = sql`a.id > ${maxId}`;
    // The timeline: create, submit, the decision, expiry, cancel (payment and issue: with the policies, below).
    await tx.execute(sql`
      insert into application_event (application_id, action, from_status, to_status, actor_id, actor_name,
        opinion, created_at)
      select a.id, e.action, e.from_status, e.to_status, e.actor_id, e.actor_name, e.opinion, e.at
      from application a
      join app_user o on o.id = a.owner_id
      cross join lateral (values
        (1, 'create', null, 'DRAFT', a.owner_id, o.username, null, a.created_at),
        (2, 'submit', 'DRAFT', 'PENDING_REVIEW', a.owner_id, o.username, null, a.submitted_at),
        (3, case a.status when 'RETURNED' then 'return' when 'DECLINED' then 'decline' else 'approve' end,
            'PENDING_REVIEW',
            case when a.status in ('PAYMENT_EXPIRED', 'ISSUED') then 'PENDING_PAYMENT' else a.status end,
            ${decider.id}::bigint, ${decider.username}, a.review_opinion, a.decided_at),
        (4, 'expire', 'PENDING_PAYMENT', 'PAYMENT_EXPIRED', null::bigint, 'system', '支付超时，支付单已过期',
            a.decided_at + interval '24 hours'),
        (5, 'cancel', 'DRAFT', 'CANCELLED', a.owner_id, o.username, null, a.updated_at)
      ) as e(step, action, from_status, to_status, actor_id, actor_name, opinion, at)
      where ${fresh} and e.at is not null
        and (e.step <> 4 or a.status = 'PAYMENT_EXPIRED') and (e.step <> 5 or a.status = 'CANCELLED')
      order by a.id, e.step`);
    lap('timeline events');
    // Review tasks: open for those waiting, done with the decision for the decided ones.
    await tx.execute(sql`
      insert into review_task (kind, subject_id, title, status, submitted_by, decision, opinion, decided_by,
        decided_at, version, created_at, updated_at)
      select 'application', a.id, a.number || ' ' || cu.name,
        case when a.status = 'PENDING_REVIEW' then 'open' else 'done' end,
        a.owner_id,
        case a.status when 'PENDING_REVIEW' then null when 'RETURNED' then 'return'
                      when 'DECLINED' then 'reject' else 'approve' end,
        a.review_opinion,
        case when a.status <> 'PENDING_REVIEW' then ${decider.id}::bigint end,
        a.decided_at,
        case when a.status = 'PENDING_REVIEW' then 0 else 1 end,
        a.submitted_at, coalesce(a.decided_at, a.submitted_at)
      from application a join customer cu on cu.id = a.customer_id
      where ${fresh} and a.submitted_at is not null
      order by a.id`);
    lap('review tasks');
    // The approved ones: paid (the sandbox charge opened a minute before) or waited 24 hours, then expired.
    await tx.execute(sql`
      insert into payment_order (number, application_id, amount_fen, status, expires_at, provider, charge_no,
        charged_at, paid_at, closed_at, created_at, updated_at)
      select 'ZF' || to_char(a.decided_at at time zone 'Asia/Shanghai', 'YYYYMMDD')
          || lpad(nextval('payment_order_number_seq')::text, 8, '0'),
        a.id, coalesce(a.premium_fen, 0), case when a.paid then 'PAID' else 'EXPIRED' end,
        a.decided_at + interval '24 hours',
        case when a.paid then 'sandbox' end,
        -- As the sandbox makes its tokens: prefix, the day, 16 hex digits.
        case when a.paid then 'SBC' || to_char((a.paid_at - interval '1 minute') at time zone 'Asia/Shanghai',
          'YYYYMMDD') || upper(substr(md5('piibs-volume:charge:' || a.number), 1, 16)) end,
        case when a.paid then a.paid_at - interval '1 minute' end,
        case when a.paid then a.paid_at end,
        case when not a.paid then a.decided_at + interval '24 hours' end,
        a.decided_at,
        -- Paid: settled by the query a second after the gateway took the money.
        case when a.paid then a.paid_at + interval '1 second' else a.decided_at + interval '24 hours' end
      from (select a.*, a.status = 'ISSUED' as paid, a.updated_at - interval '2 seconds' as paid_at
        from application a where ${fresh} and a.status in ('PAYMENT_EXPIRED', 'ISSUED') order by a.id) a`);
    // The gateway's side of the paid charges (what the sandbox keeps, so a refund finds them): paid, the
    // notification not delivered (the payment was learnt by query).
    await tx.execute(sql`
      insert into sandbox_charge (charge_no, merchant_id, order_no, amount_fen, subject, status, expires_at,
        trade_no, paid_at, created_at, updated_at)
      select o.charge_no, ${merchantId}, o.number, o.amount_fen, p.name || ' · ' || cu.name || ' · ' || a.number,
        'PAID', o.expires_at,
        'SBX' || to_char(o.paid_at at time zone 'Asia/Shanghai', 'YYYYMMDD')
          || upper(substr(md5('piibs-volume:trade:' || a.number), 1, 16)),
        o.paid_at, o.charged_at, o.paid_at
      from payment_order o join application a on a.id = o.application_id
        join product p on p.id = a.product_id join customer cu on cu.id = a.customer_id
      where ${fresh} and o.status = 'PAID'
      order by o.id`);
    await tx.execute(sql`
      insert into payment (order_id, application_id, provider, trade_no, amount_fen, paid_at, source, created_at)
      select o.id, o.application_id, 'sandbox', c.trade_no, o.amount_fen, o.paid_at, 'query', o.updated_at
      from payment_order o join sandbox_charge c on c.merchant_id = ${merchantId} and c.order_no = o.number
      where o.application_id > ${maxId} and o.status = 'PAID'
      order by o.id`);
    lap('payment orders, payments');
    // The policies, numbered in the order issued. Covers: the template whose quote the application holds. A
    // verification code of the issuing alphabet from md5 (deterministic like the rest: a set for measuring).
    // Status: the period's as of the seed day (what the hourly pass would have stored, without its audit rows).
    const today = shanghaiToday();
    await tx.execute(sql`
      insert into policy (number, application_id, product_id, customer_id, payment_id, holder_name, holder_uscc,
        insured_name, insured_uscc, insured_address, start_date, end_date, premium_fen, prevention_ratio,
        prevention_fee_fen, coverages, headcount, project_name, special_terms, status, verification_code,
        pdf_sha256, pdf_size, issued_at, created_at, updated_at, owner_id, agent_id, applicant_owner_id)
      select policy_prefix || to_char(issued_at at time zone 'Asia/Shanghai', 'YYYY')
          || lpad(nextval('policy_number_seq')::text, 8, '0'),
        application_id, product_id, customer_id, payment_id, holder_name, holder_uscc, insured_name, insured_uscc,
        insured_address, start_date, end_date, premium_fen, prevention_ratio, prevention_fee_fen, covers,
        headcount, project_name, special_terms, status,
        (select string_agg(substr(${CODE_ALPHABET}::text, 1 + (get_byte(code_bytes, k) & 31), 1), '' order by k)
          from generate_series(0, 15) as k),
        '', 0, issued_at, issued_at,
        case status when 'ISSUED' then issued_at
          -- the pass runs at 5 past the hour
          when 'IN_FORCE' then greatest(issued_at, start_date::timestamp at time zone 'Asia/Shanghai'
            + interval '5 minutes')
          else (end_date + 1)::timestamp at time zone 'Asia/Shanghai' + interval '5 minutes' end,
        -- As the row trigger copies them (migration 0027), which may be skipped here.
        owner_id, agent_id, applicant_owner_id
      from (
        select a.id as application_id, a.product_id, a.customer_id, m.id as payment_id, cu.name as holder_name,
          cu.uscc as holder_uscc, coalesce(a.insured_name, cu.name) as insured_name, a.insured_uscc,
          a.insured_address, a.start_date, a.end_date, coalesce(a.premium_fen, 0) as premium_fen,
          a.prevention_ratio, coalesce(a.prevention_fee_fen, 0) as prevention_fee_fen, tp.covers, a.headcount,
          a.project_name, a.special_terms, tp.policy_prefix, a.updated_at as issued_at, a.owner_id, a.agent_id,
          a.applicant_owner_id,
          case when a.start_date > ${today}::date then 'ISSUED' when a.end_date < ${today}::date then 'EXPIRED'
               else 'IN_FORCE' end as status,
          decode(md5('piibs-volume:code:' || a.number), 'hex') as code_bytes
        from application a
          join payment m on m.application_id = a.id
          join customer cu on cu.id = a.customer_id
          join (select distinct on (product_id, quote_key) * from vol_template) tp
            on tp.product_id = a.product_id and tp.quote_key = a.quote - 'quotedAt'
        where ${fresh} and a.status = 'ISSUED'
        order by a.updated_at, a.id
      ) as issued`);
    // Their timeline's end: paid (the query's settlement), issued.
    await tx.execute(sql`
      insert into application_event (application_id, action, from_status, to_status, actor_name, opinion,
        created_at)
      select p.application_id, e.action, e.from_status, e.to_status, e.actor_name, e.opinion, e.at
      from policy p join payment m on m.id = p.payment_id
      cross join lateral (values
        (1, 'pay', 'PENDING_PAYMENT', 'PAID', ${paymentActor('sandbox')}, null, m.created_at),
        (2, 'issue', 'PAID', 'ISSUED', ${SYSTEM_ACTOR}, '保单号 ' || p.number, p.issued_at)
      ) as e(step, action, from_status, to_status, actor_name, opinion, at)
      where p.application_id > ${maxId}
      order by p.application_id, e.step`);
    const [{ policies } = { policies: 0 }] = (
      await tx.execute<{ policies: number }>(
        sql`select count(*)::int as policies from policy where application_id > ${maxId}`,
      )
    ).rows;
    lap(`${policies} policies`);
    // The statement triggers may not have run: advance the applications', customers' and policies' data versions
    // (cached list counts) and the data scopes' (the branch departments).
    await tx.execute(
      sql`select nextval('application_change_seq'), nextval('customer_change_seq'), nextval('policy_data_version_seq'),
        nextval('data_scope_version_seq')`,
    );
    await tx.insert(systemSettings).values({
      key: VOLUME_KEY,
      value: {
        applications: n,
        policies,
        customers: nCustomers,
        agents: nAgents,
        at: new Date().toISOString(),
      },
    });
    await writeAudit(tx, {
      actorId: admin.id,
      actorName: admin.username,
      action: 'seed',
      entity: 'volume',
      detail: {
        applications: n,
        policies,
        customers: nCustomers,
        agents: nAgents,
        enterprises: nEnterprises,
      },
    });
  });
  // Fresh statistics and visibility map: the planner knows the new sizes at once, and index-only scans (a deep
  // OFFSET over the list's index) need not visit the heap.
  await db.execute(
    sql`vacuum analyze application, application_event, review_task, payment_order, payment, sandbox_charge, policy,
      customer, app_user`,
  );
  lap('vacuum analyze');
  const result = resultOf(await volumeSeeded(db), true, started);
  log(`volume data: ${result.applications} applications, ${result.policies} policies in ${result.ms} ms`);
  return result;
}

/** The volume data set's accounts (password Demo@2026), for benchmarks: an agent and an enterprise. */
export const VOLUME_ACCOUNTS = Object.freeze({ agent: 'vol_agent_001', enterprise: 'vol_ent_0001' });

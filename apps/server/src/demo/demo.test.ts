import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isPhone, isUscc, passwordStrength } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import { renewalState } from '@piibs/shared/sales';
import { sql } from 'drizzle-orm';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../test/auth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { demoCaPaths } from '../ca/demo-ca.ts';
import { onStart } from '../startup.ts';
import { seedDemoApplications } from './applications.ts';
import {
  DEMO_CUSTOMERS,
  DEMO_ENTERPRISE,
  DEMO_ORGANISATION,
  DEMO_PASSWORD,
  seedDemo,
  seedDemoCustomers,
} from './base.ts';
import { seedDemoNotifications } from './notifications.ts';

let t: TestContext;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  await onStart({ config: t.config, database: t.database, log: (l) => lines.push(l) });
});
afterAll(() => t.close());

describe('demo data (PIIBS_DEMO=1)', () => {
  it('warns that demo data is loaded', () => {
    expect(lines.some((l) => l.includes('WARNING') && l.includes('demo data'))).toBe(true);
  });

  it('initialises the system with the demo organisation', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/init/check' })).json()).toEqual({
      initialized: true,
    });
  });

  it('the demo password is strong enough that psPower is not 0', () => {
    expect(passwordStrength(DEMO_PASSWORD)).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['admin', 'admin', 'staff'],
    ['underwriter', 'underwriter', 'staff'],
    ['agent', 'agent', 'agent'],
    ['enterprise', '17', 'enterprise'],
    ['service', 'service', 'service'],
  ])('account %s signs in with Demo@2026 as role %s, channel %s', async (username, role, channel) => {
    const res = await login(t, username, DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().psPower).toBeGreaterThanOrEqual(1);
    expect(res.json().user.roles).toEqual([role]);
    expect(res.json().user.channel).toBe(channel);
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/auth/getUserRole',
      headers: bearer(res.json().token),
    });
    expect(r.json().role).toBe(role);
  });

  it('the enterprise account carries a valid GB 32100 code', async () => {
    expect(isUscc(DEMO_ENTERPRISE.uscc)).toBe(true);
    const res = await login(t, 'enterprise', DEMO_PASSWORD);
    expect(res.json().user.uscc).toBe(DEMO_ENTERPRISE.uscc);
  });

  it('seeding again does nothing', async () => {
    expect(await seedDemo(t.database.db)).toBe(false);
  });

  it('writes the demo CA: a trusted root, its key and the enterprise PKCS#12 (password Demo@2026)', () => {
    const p = demoCaPaths(t.config.dataDir, DEMO_ENTERPRISE.uscc);
    for (const f of [p.rootCert, p.rootKey, p.enterpriseP12]) expect(existsSync(f), f).toBe(true);
    expect(path.basename(path.dirname(p.rootCert))).toBe('trusted');
    const der = readFileSync(p.enterpriseP12).toString('binary');
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), DEMO_PASSWORD);
    const certs = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [];
    const keys =
      p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ??
      [];
    expect(certs.length).toBe(2);
    expect(keys.length).toBe(1);
    expect(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), 'wrong')).toThrow();
  });

  it('the enterprise certificate from the PKCS#12 signs in with CA sign-in (the journey works out of the box)', async () => {
    const p = demoCaPaths(t.config.dataDir, DEMO_ENTERPRISE.uscc);
    const p12 = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(readFileSync(p.enterpriseP12).toString('binary')),
      DEMO_PASSWORD,
    );
    const keyBag = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[
      forge.pki.oids.pkcs8ShroudedKeyBag!
    ]![0]!;
    const certBags = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!]!;
    const leaf = certBags.find(
      (b) =>
        !b.cert!.getExtension('basicConstraints') ||
        !(b.cert!.getExtension('basicConstraints') as { cA?: boolean }).cA,
    )!;
    const { challenge } = (await t.app.inject({ method: 'GET', url: '/api/auth/ca/challenge' })).json();
    // Sign the way a browser with node-forge would.
    const md = forge.md.sha256.create();
    md.update(challenge, 'utf8');
    const signature = forge.util.encode64((keyBag.key as forge.pki.rsa.PrivateKey).sign(md));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/loginCA',
      payload: { certificate: forge.pki.certificateToPem(leaf.cert!), challenge, signature },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('enterprise');
  });
});

describe('demo data passes the validators user input passes', () => {
  const column = async (query: ReturnType<typeof sql>) =>
    (await t.database.db.execute<{ v: string }>(query)).rows.map((r) => r.v);

  it('every credit code the demo wrote (customers, accounts, applications, policies, organisations) is GB 32100', async () => {
    const codes = await column(sql`
      select uscc as v from customer union all
      select uscc from app_user where uscc is not null union all
      select insured_uscc from application where insured_uscc is not null union all
      select holder_uscc from policy union all
      select insured_uscc from policy where insured_uscc is not null union all
      select code from service_org`);
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((code) => !isUscc(code))).toEqual([]);
  });

  it('every phone is a phone number, and every period ends after it starts', async () => {
    const phones = await column(sql`
      select phone as v from customer union all
      select phone from app_user where phone is not null union all
      select contact_phone from application where contact_phone is not null union all
      select contact_phone from annual_order where contact_phone is not null union all
      select phone from service_person`);
    expect(phones.length).toBeGreaterThan(5);
    expect(phones.filter((phone) => !phone || !isPhone(phone))).toEqual([]);
    const periods = await column(sql`
      select 'application ' || number as v from application where end_date < start_date union all
      select 'policy ' || number from policy where end_date <= start_date union all
      select 'annual order ' || number from annual_order where end_date <= start_date union all
      select 'declaration ' || number from secondary_order where end_date <= start_date`);
    expect(periods).toEqual([]);
  });

  it('every prevention service lies within its policy period, and none was performed before the policy started', async () => {
    const outside = await column(sql`
      select o.number || ' ' || coalesce(o.service_date::text, '') || ' / ' || o.scheduled_date as v
      from service_order o join policy p on p.id = o.policy_id
      where o.scheduled_date not between p.start_date and p.end_date
         or (o.service_date is not null and o.service_date not between p.start_date and p.end_date)
         or (o.confirmed_at is not null and (o.confirmed_at at time zone 'Asia/Shanghai')::date < p.start_date)`);
    expect(outside).toEqual([]);
    const recorded = await column(sql`select number as v from service_order where service_date is not null`);
    expect(recorded.length).toBeGreaterThan(0);
  });

  it('the demo policy is in force, issued before it started, and its e-policy matches its row', async () => {
    const { rows } = await t.database.db.execute<{
      start_date: string;
      issued: string;
      today: string;
      sha: string;
      doc_sha: string;
    }>(sql`select p.start_date::text, (p.issued_at at time zone 'Asia/Shanghai')::date::text as issued,
             (now() at time zone 'Asia/Shanghai')::date::text as today, p.pdf_sha256 as sha, d.sha256 as doc_sha
           from policy p join policy_document d on d.policy_id = p.id
           join customer c on c.id = p.customer_id where c.uscc = ${DEMO_ENTERPRISE.uscc}`);
    expect(rows.length).toBe(3);
    for (const p of rows) {
      expect(p.start_date < p.today).toBe(true);
      expect(p.issued <= p.start_date).toBe(true);
      expect(p.doc_sha).toBe(p.sha);
    }
  });

  it('the enterprise has a policy inside its renewal window (续保 can be tried) and one whose renewal opens later', async () => {
    const ent = (await login(t, 'enterprise', DEMO_PASSWORD)).json().token as string;
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/policies?sort=endDate,asc', headers: bearer(ent) })
    ).json() as { content: { id: number; endDate: string; statusLabel: string }[] };
    expect(list.content.map((p) => p.statusLabel)).toEqual(['有效', '有效', '有效']);
    const today = shanghaiToday();
    const [soon, later] = list.content;
    expect(renewalState(soon!.endDate, today)).toBe('open');
    expect(renewalState(later!.endDate, today)).toBe('early');
    const info = await t.app.inject({
      method: 'GET',
      url: `/api/policies/${soon!.id}/renewal`,
      headers: bearer(ent),
    });
    expect(info.json()).toMatchObject({ canRenew: true });
  });
});

describe('demo customers (PIIBS_DEMO=1)', () => {
  const as = async (username: string) => {
    const token = (await login(t, username, DEMO_PASSWORD)).json().token as string;
    return (url: string, payload?: object) =>
      t.app.inject({ method: payload ? 'POST' : 'GET', url, headers: bearer(token), payload });
  };

  it('carry valid GB 32100 codes and cover every review state', () => {
    expect(DEMO_CUSTOMERS.every((c) => isUscc(c.uscc))).toBe(true);
    expect(new Set(DEMO_CUSTOMERS.map((c) => c.status))).toEqual(
      new Set(['approved', 'pending', 'returned', 'rejected']),
    );
  });

  it('the enterprise sees its own approved record and can pre-fill an application from it', async () => {
    const ent = await as('enterprise');
    const list = (await ent('/api/customers')).json();
    expect(list.content).toHaveLength(1);
    expect(list.content[0]).toMatchObject({ uscc: DEMO_ENTERPRISE.uscc, reviewStatus: 'approved' });
    const draft = await ent('/api/inputPlaInsurance/ZhenJiang/applicantInit', { uscc: DEMO_ENTERPRISE.uscc });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().product.code).toBe('AZX_GM_2025');
  });

  it('the agent sees their clients: approved, pending and returned with its opinion', async () => {
    const agent = await as('agent');
    const list = (await agent('/api/customers?sort=id,asc')).json();
    expect(list.content.map((c: { reviewStatus: string }) => c.reviewStatus)).toEqual([
      'approved',
      'pending',
      'returned',
    ]);
    expect(list.content[2].reviewOpinion).toMatch(/地址不一致/);
  });

  it('the underwriter has a waiting customer task, and sees decided ones', async () => {
    const uw = await as('underwriter');
    const open = (await uw('/api/tasks?kind=customer')).json();
    expect(open.totalElements).toBe(1);
    expect(open.content[0].ageSeconds).toBeGreaterThan(24 * 3600);
    expect((await uw('/api/tasks?kind=customer&status=done')).json().totalElements).toBe(4);
    expect((await uw('/api/customers?reviewStatus=rejected')).json().totalElements).toBe(1);
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoCustomers(t.database.db)).toBe(0);
  });
});

describe('demo applications (PIIBS_DEMO=1)', () => {
  const as = async (username: string) => {
    const token = (await login(t, username, DEMO_PASSWORD)).json().token as string;
    return (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  };
  type Row = { id: number; status: string; premiumFen: number | null; reviewOpinion: string | null };

  it('cover every state with real quotes: the enterprise its own, the agent its clients', async () => {
    const ent = (await (await as('enterprise'))('/api/applications?sort=id,asc')).json().content as Row[];
    expect(ent.map((a) => a.status)).toEqual([
      'DRAFT',
      'PENDING_REVIEW',
      'PENDING_PAYMENT',
      'ISSUED',
      'ISSUED',
      'ISSUED',
    ]);
    // 86 heads at 500,000 yuan (C): 86 × (50,000,000 × 0.38‰ + 5,000,000 × 0.6‰) + 60,000 = 1,952,000;
    // the draft has ×0.9 × ×0.95 → 1,668,960; the last three are paid and issued (demo/policies.ts), the first
    // of them the named list of 5: 5 × 22,000 + 60,000 = 170,000
    expect(ent.map((a) => a.premiumFen)).toEqual([
      1_668_960, 1_952_000, 1_952_000, 170_000, 1_952_000, 1_952_000,
    ]);
    const agent = (await (await as('agent'))('/api/applications?sort=id,asc')).json().content as Row[];
    // …and the deregistered client's policy, issued then cancelled (demo/policy-changes.ts)
    expect(agent.map((a) => a.status)).toEqual(['RETURNED', 'DECLINED', 'CANCELLED', 'DRAFT', 'ISSUED']);
    expect(agent[0]!.reviewOpinion).toMatch(/参保人数/);
    const detail = (await (await as('enterprise'))(`/api/applications/${ent[2]!.id}`)).json();
    expect(detail.paymentOrder).toMatchObject({ amountFen: 1_952_000, status: 'PENDING' });
    const co = (await (await as('enterprise'))(`/api/applications/${ent[1]!.id}`)).json();
    expect(co.coinsurers.reduce((s: number, c: { premiumFen: number }) => s + c.premiumFen, 0)).toBe(
      1_952_000,
    );
    // the issuer (the demo organisation) leads the co-insurance
    expect(co.coinsurers[0]).toMatchObject({ insurerName: DEMO_ORGANISATION, lead: true, shareText: '60' });
  });

  it('carry the documents their products require, uploaded as files the server accepts', async () => {
    const ent = await as('enterprise');
    const rows = (await ent('/api/applications?sort=id,asc')).json().content as Row[];
    const mine = (await ent('/api/customers/mine')).json() as { id: number };
    const licence = (await ent(`/api/materials?businessType=customer&businessId=${mine.id}`)).json();
    expect(licence.content.map((m: { docType: string }) => m.docType)).toEqual(['BUSINESS_LICENSE']);
    const pending = (await ent(`/api/applications/${rows[1]!.id}`)).json();
    expect(pending.customerDocTypes).toEqual(['BUSINESS_LICENSE']);
    const files = (await ent(`/api/materials?businessType=application&businessId=${rows[1]!.id}`)).json();
    expect(files.content).toEqual([
      expect.objectContaining({
        docType: 'INSURED_LIST',
        docTypeName: '被保险人清单',
        mime: 'application/pdf',
      }),
    ]);
    const pdf = await ent(files.content[0].fileUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The agent's returned application: the underwriter asked for the signed application form.
    const agent = await as('agent');
    const returned = (await agent('/api/applications?status=RETURNED')).json().content[0] as Row;
    expect((await agent(`/api/applications/${returned.id}`)).json()).toMatchObject({
      requestedDocTypes: ['SIGNED_APPLICATION'],
      customerDocTypes: [],
    });
  });

  it('the underwriter has an application waiting in the queue', async () => {
    const open = (await (await as('underwriter'))('/api/tasks?kind=application')).json();
    expect(open.totalElements).toBe(1);
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoApplications(t.database.db, t.config)).toBe(0);
  });
});

describe('demo notifications (PIIBS_DEMO=1)', () => {
  const inbox = async (username: string) => {
    const token = (await login(t, username, DEMO_PASSWORD)).json().token as string;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications?size=100',
      headers: bearer(token),
    });
    return res.json() as { content: { kind: string; link: string | null }[]; unread: number };
  };

  it('the navbar badge shows something for the underwriter, the enterprise and the agent', async () => {
    const uw = await inbox('underwriter');
    expect(uw.unread).toBeGreaterThan(0);
    // Every waiting task (the pending customer, the pending application) is among them.
    expect(uw.content.filter((n) => n.kind === 'task.assigned').length).toBeGreaterThanOrEqual(2);
    const ent = await inbox('enterprise');
    expect(ent.content.map((n) => n.kind)).toEqual(
      expect.arrayContaining(['application.approved', 'payment.received', 'policy.issued']),
    );
    expect(ent.content.find((n) => n.kind === 'policy.issued')?.link).toMatch(
      /^\/piibs\/projectManage\/policyInsuranceView\/\d+$/,
    );
    const agent = await inbox('agent');
    expect(agent.content.map((n) => n.kind)).toEqual(
      expect.arrayContaining(['customer.returned', 'application.returned']),
    );
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoNotifications(t.database.db)).toBe(0);
  });
});

describe('the demo’s operation log reads in words (PIIBS_DEMO=1)', () => {
  it('people by name, system steps as 系统自动, records by number; no code, id or JSON in any line', async () => {
    const token = (await login(t, 'admin', DEMO_PASSWORD)).json().token as string;
    const res = await t.app.inject({ method: 'GET', url: '/api/logs?size=500', headers: bearer(token) });
    const rows = res.json().content as {
      actorName: string | null;
      entity: string;
      action: string;
      entityId: string | null;
      record: string | null;
      lines: string[];
    }[];
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.map((r) => r.actorName)).toEqual(
      expect.arrayContaining(['系统自动', '沙箱支付（测试环境）']),
    );
    for (const r of rows) {
      const where = `${r.entity}.${r.action}`;
      expect(r.actorName ?? '', where).not.toMatch(/^system$|^payment:/);
      if (r.entityId !== null && r.record !== null) expect(r.record, where).not.toBe(r.entityId);
      for (const line of r.lines) {
        expect(line, where).toMatch(/^[^A-Za-z：]+：/);
        expect(line, where).not.toMatch(/[{}"]|null|undefined|（已删除）|\b3211\d\d\b|[A-Z]{3,}_[A-Z]+/);
      }
    }
  });
});

describe('a data directory seeded when the demo enterprise had another credit code', () => {
  const EARLIER = '91321100MA1XXXXXX4';
  let old: TestContext;
  beforeAll(async () => {
    old = await createTestApp({ demo: true });
    await seedDemo(old.database.db);
    await old.database.db.execute(sql`update app_user set uscc = ${EARLIER} where username = 'enterprise'`);
    await onStart({ config: old.config, database: old.database, log: () => {} });
  }, 120_000);
  afterAll(() => old?.close());

  it('starts, and every demo record is the enterprise’s under the code its account holds', async () => {
    const count = async (query: ReturnType<typeof sql>) =>
      ((await old.database.db.execute(query)).rows[0] as { n: number }).n;
    expect(
      await count(sql`select count(*)::int as n from customer where uscc = ${DEMO_ENTERPRISE.uscc}`),
    ).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from customer where uscc = ${EARLIER} and review_status = 'approved'`,
      ),
    ).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from policy where holder_uscc = ${EARLIER}`),
    ).toBeGreaterThanOrEqual(3);
    expect(existsSync(demoCaPaths(old.config.dataDir, EARLIER).enterpriseP12)).toBe(true);
    expect(existsSync(demoCaPaths(old.config.dataDir, DEMO_ENTERPRISE.uscc).enterpriseP12)).toBe(false);
  });
});

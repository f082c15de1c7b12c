// The demo policies (PIIBS_DEMO=1): the demo enterprise finds three issued policies — the newest co-insured, in
// force with its year ahead; one inside its renewal window; one with a named insured list (从业人员名单) — each
// with its e-policy, verifying publicly.
import { checkInsuredList, maskIdNumber } from '@piibs/shared/named-insured';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { pdfsig } from '../../../test/pdfsig.ts';
import { DEMO_ORGANISATION, DEMO_PASSWORD } from '../../demo/base.ts';
import { DEMO_NAMED_PERSONS, seedDemoPolicies } from '../../demo/policies.ts';
import { DEMO_JOINERS } from '../../demo/policy-changes.ts';
import { onStart } from '../../startup.ts';

let t: TestContext;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  await onStart({ config: t.config, database: t.database, log: (l) => lines.push(l) });
});
afterAll(() => t.close());

describe('demo policy (PIIBS_DEMO=1)', () => {
  it('the demo enterprise has three paid, issued policies, the newest co-insured, each with its e-policy', async () => {
    expect(lines).toContain('demo policies seeded (paid, issued; one inside its renewal window)');
    const token = (await login(t, 'enterprise', DEMO_PASSWORD)).json().token as string;
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
    const list = (await get('/api/policies')).json();
    expect(list.totalElements).toBe(3);
    const p = (await get(`/api/policies/${list.content[0].id}`)).json();
    // issued 60 days ago by the demo's clock: in force today
    expect(p).toMatchObject({ status: 'IN_FORCE', application: { status: 'ISSUED' } });
    // the issuer (the demo organisation) leads with 70%
    expect(
      p.coinsurers.map((c: { insurerName: string; lead: boolean; shareText: string }) => [
        c.insurerName,
        c.lead,
        c.shareText,
      ]),
    ).toEqual([
      [DEMO_ORGANISATION, true, '70'],
      ['中国人民财产保险股份有限公司', false, '30'],
    ]);
    expect(p.payments).toEqual([expect.objectContaining({ source: 'query', amountFen: p.premiumFen })]);
    const pdf = await get(`/api/policies/${p.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // Its e-policy, redrawn by the demo's clock, carries one valid signature of the demo insurer's certificate,
    // and start-up said that documents are signed by a demo certificate.
    expect(pdfsig(pdf.rawPayload)).toEqual([
      expect.objectContaining({
        signerName: `${DEMO_ORGANISATION} 电子签章`,
        validation: 'Signature is Valid.',
      }),
    ]);
    expect(lines.some((l) => l.startsWith('WARNING: documents are signed by a demo certificate'))).toBe(true);
    const verify = await t.app.inject({ method: 'GET', url: `/api/policies/verify/${p.verificationCode}` });
    expect(verify.json()).toMatchObject({
      policyNumber: p.number,
      holderName: '镇江**安全科技有限公司',
      insurerName: DEMO_ORGANISATION,
      premiumFen: p.premiumFen,
    });
    // The file drawn at issue and its redraw by the demo clock: both listed, the download the latest; beside them
    // the 批单 of the demo's endorsement.
    const docs = verify.json().documents as { kind: string; sha256: string }[];
    expect(docs.map((d) => d.kind).sort()).toEqual(['ENDORSEMENT', 'POLICY', 'POLICY']);
    expect(docs.filter((d) => d.kind === 'POLICY').at(-1)!.sha256).toBe(pdf.headers['x-content-sha256']);
  });

  it("has an approved endorsement with its 批单, and a deregistered client's policy cancelled and refunded", async () => {
    expect(lines).toContain('demo endorsement and cancellation seeded: 3');
    const ent = (await login(t, 'enterprise', DEMO_PASSWORD)).json().token as string;
    const agent = (await login(t, 'agent', DEMO_PASSWORD)).json().token as string;
    const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
    const own = (await get(ent, '/api/policies')).json().content[0];
    const history = (await get(ent, `/api/policies/${own.id}/changes`)).json();
    expect(history).toEqual([
      expect.objectContaining({ kindLabel: '批改', statusLabel: '已生效', premiumDeltaText: '保费不变' }),
    ]);
    expect(history[0].endorsementNumber).toMatch(/^EAZX/);
    const list = (await get(agent, '/api/policies')).json();
    const cancelled = list.content.find((p: { statusLabel: string }) => p.statusLabel === '已退保');
    expect(cancelled).toBeTruthy();
    const [c] = (await get(agent, `/api/policies/${cancelled.id}/changes`)).json();
    expect(c).toMatchObject({ kindLabel: '退保', reasonLabel: '企业注销', statusLabel: '已生效' });
    expect(c.refundedFen).toBe(-c.premiumDeltaFen);
    expect(c.refundedFen).toBeGreaterThan(0);
  });

  it('one policy carries a short named list of plainly fictitious people that passes the list rules', async () => {
    expect(checkInsuredList(DEMO_NAMED_PERSONS).problems).toEqual([]);
    expect(DEMO_NAMED_PERSONS.every((p) => p.name.startsWith('示例员工'))).toBe(true);
    const token = (await login(t, 'enterprise', DEMO_PASSWORD)).json().token as string;
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
    const list = (await get('/api/policies')).json().content as { id: number; productName: string }[];
    const named = list.find((p) => p.productName === '安全生产责任保险（实名制）');
    expect(named).toBeTruthy();
    const persons = (await get(`/api/policies/${named!.id}/insuredPersons`)).json();
    expect(persons).toMatchObject({ required: true, count: DEMO_NAMED_PERSONS.length });
    expect(persons.persons.map((p: { idNumberMasked: string }) => p.idNumberMasked)).toEqual(
      DEMO_NAMED_PERSONS.map((p) => maskIdNumber(p.idNumber)),
    );
    const detail = (await get(`/api/policies/${named!.id}`)).json();
    expect(detail).toMatchObject({ headcount: DEMO_NAMED_PERSONS.length, status: 'IN_FORCE' });
    // The other two are not listed: their products do not ask for it.
    const others = list.filter((p) => p.id !== named!.id);
    for (const p of others)
      expect((await get(`/api/policies/${p.id}/insuredPersons`)).json()).toMatchObject({ count: 0 });
  });

  it("the underwriter's 批改审核 has the named-list policy's request: two employees joining, priced, masked", async () => {
    const uw = (await login(t, 'underwriter', DEMO_PASSWORD)).json().token as string;
    const queue = (
      await t.app.inject({ method: 'GET', url: '/api/policy-change-reviews', headers: bearer(uw) })
    ).json();
    expect(queue).toEqual([
      expect.objectContaining({
        kindLabel: '批改',
        statusLabel: '待核保',
        productName: '安全生产责任保险（实名制）',
      }),
    ]);
    expect(queue[0].premiumDeltaFen).toBeGreaterThan(0);
    expect(queue[0].persons.added).toEqual(
      DEMO_JOINERS.map((p) => ({ name: p.name, idNumberMasked: maskIdNumber(p.idNumber) })),
    );
    expect(checkInsuredList([...DEMO_NAMED_PERSONS, ...DEMO_JOINERS]).problems).toEqual([]);
  });

  it('seeding again writes nothing', async () => {
    expect(await seedDemoPolicies(t.database.db, t.config)).toBe(0);
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUscc } from '../../../test/business.ts';
import { auditLog } from '../../db/schema.ts';
import { createRiskWorld, orgForm, personForm, type RiskWorld } from './test-fixtures.ts';

let w: RiskWorld;
beforeAll(async () => {
  w = await createRiskWorld();
});
afterAll(() => w.t.close());

type Org = {
  id: number;
  code: string;
  name: string;
  version: number;
  qualified: boolean;
  regionNames: string[];
  industryNames: string[];
  contacts: { name: string; phone: string }[];
  personCount: number;
  memberCount: number;
};

describe('service organisations', () => {
  it('creates with a GB 32100 code, labels, masked contacts; the same code twice answers 409', async () => {
    const code = newUscc();
    const res = await w.underwriter.post('/api/service-orgs', orgForm({ code, name: '镇江测试服务机构' }));
    expect(res.statusCode, res.body).toBe(200);
    const org = res.json() as Org;
    expect(org).toMatchObject({
      code,
      qualified: true,
      regionNames: ['镇江市'],
      memberCount: 0,
      personCount: 0,
    });
    expect(org.industryNames[0]).toContain('制造业');
    expect(org.contacts[0]!.phone).toBe('139****5678');
    const again = await w.underwriter.post('/api/service-orgs', orgForm({ code }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('统一社会信用代码已存在');
  });

  it('refuses a code failing the check character, unknown regions and industries (400 naming the field)', async () => {
    const bad = await w.underwriter.post('/api/service-orgs', orgForm({ code: '91320000134768025M' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('统一社会信用代码：请输入正确的统一社会信用代码');
    const region = await w.underwriter.post('/api/service-orgs', orgForm({ regions: ['999999'] }));
    expect(region.json().message).toBe('服务地区：字典中没有代码 999999');
    const dates = await w.underwriter.post(
      '/api/service-orgs',
      orgForm({
        qualifications: [{ name: '资质', certNo: 'X1', validFrom: '2026-01-01', validTo: '2025-01-01' }],
      }),
    );
    expect(dates.statusCode).toBe(400);
    expect(dates.json().message).toBe('有效期止：不能早于有效期起');
  });

  it('only insurer staff create organisations; permissions are checked first', async () => {
    expect((await w.svc.post('/api/service-orgs', orgForm())).statusCode).toBe(403);
    expect((await w.ent.get('/api/service-orgs')).statusCode).toBe(403);
    expect((await w.nobody.get('/api/service-orgs')).statusCode).toBe(403);
  });

  it("an organisation's account sees and edits only its own record (not code or enabled)", async () => {
    const list = (await w.svc.get('/api/service-orgs')).json();
    expect(list.content.map((o: Org) => o.id)).toEqual([w.org1.id]);
    expect((await w.svc.get(`/api/service-orgs/${w.org2.id}`)).statusCode).toBe(404);
    expect((await w.svcLoose.get('/api/service-orgs')).json().totalElements).toBe(0);

    const org = (await w.svc.get(`/api/service-orgs/${w.org1.id}`)).json() as Org;
    // The masked phone as listed keeps the stored number.
    const form = { ...orgForm({ code: org.code }), id: org.id, version: org.version, contacts: org.contacts };
    const res = await w.svc.post('/api/service-orgs/update', { ...form, address: '镇江市新地址 2 号' });
    expect(res.statusCode, res.body).toBe(200);
    const unmasked = (await w.underwriter.post(`/api/service-orgs/${org.id}/unmask`)).json();
    expect(unmasked.contacts[0].phone).toBe('13912345678');
    const [audit] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'service_org'), eq(auditLog.action, 'unmask')));
    expect(audit?.entityId).toBe(String(org.id));

    const stale = await w.svc.post('/api/service-orgs/update', form);
    expect(stale.statusCode).toBe(409);
    const enabled = await w.svc.post('/api/service-orgs/update', {
      ...form,
      version: org.version + 1,
      enabled: false,
    });
    expect(enabled.statusCode).toBe(403);
    const other = await w.svc.post('/api/service-orgs/update', { ...form, id: w.org2.id });
    expect(other.statusCode).toBe(404);
  });

  it('links only service accounts, each to one organisation', async () => {
    const uw = await w.underwriter.post(`/api/service-orgs/${w.org1.id}/members`, {
      userIds: [w.svcIds.svc, w.ids.underwriter],
    });
    expect(uw.statusCode).toBe(400);
    const taken = await w.underwriter.post(`/api/service-orgs/${w.org1.id}/members`, {
      userIds: [w.svcIds.svc, w.svcIds.svc2],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      '机构账号：账号 svc2 已属于其他服务机构「江苏华安应急技术咨询有限公司」，请先从该机构移除',
    );
    const members = (await w.svc.get(`/api/service-orgs/${w.org1.id}/members`)).json();
    expect(members.map((m: { username: string }) => m.username)).toEqual(['svc']);
    expect((await w.svc.post(`/api/service-orgs/${w.org1.id}/members`, { userIds: [] })).statusCode).toBe(
      403,
    );
  });

  it('offers as members only service accounts not linked to another organisation, without secrets', async () => {
    type Candidate = { userId: number; username: string; nickName: string; enabled: boolean };
    const candidates = async (orgId: number, keyword?: string) => {
      const res = await w.underwriter.get(
        `/api/service-orgs/${orgId}/member-candidates${keyword ? `?keyword=${encodeURIComponent(keyword)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Candidate[];
    };
    const all = await candidates(w.org1.id);
    const names = all.map((c) => c.username);
    // Its own member and the unlinked account; not org 2's account, not the underwriter.
    expect(names).toEqual(expect.arrayContaining(['svc', 'svc3']));
    expect(names).not.toContain('svc2');
    expect(names).not.toContain('uw');
    expect(Object.keys(all[0]!).sort()).toEqual(['enabled', 'nickName', 'userId', 'username']);
    expect((await candidates(w.org1.id, 'SVC3')).map((c) => c.username)).toEqual(['svc3']);

    // Once linked to org 1, svc3 is no longer offered to org 2.
    expect((await candidates(w.org2.id)).map((c) => c.username)).toContain('svc3');
    const linked = await w.underwriter.post(`/api/service-orgs/${w.org1.id}/members`, {
      userIds: [w.svcIds.svc, w.svcIds.svcLoose],
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await candidates(w.org2.id)).map((c) => c.username)).not.toContain('svc3');
    expect((await candidates(w.org1.id)).map((c) => c.username)).toContain('svc3');
    await w.underwriter.post(`/api/service-orgs/${w.org1.id}/members`, { userIds: [w.svcIds.svc] });

    // Staff only: an organisation's own account 403, another organisation's 404, no permission 403.
    expect((await w.svc.get(`/api/service-orgs/${w.org1.id}/member-candidates`)).statusCode).toBe(403);
    expect((await w.svc2.get(`/api/service-orgs/${w.org1.id}/member-candidates`)).statusCode).toBe(404);
    expect((await w.ent.get(`/api/service-orgs/${w.org1.id}/member-candidates`)).statusCode).toBe(403);
  });

  it('deletes an unused organisation (audited)', async () => {
    const org = (await w.underwriter.post('/api/service-orgs', orgForm({ name: '临时机构' }))).json() as Org;
    const res = await w.underwriter.post('/api/service-orgs/delete', [org.id]);
    expect(res.json()).toEqual({ deleted: 1 });
    expect((await w.underwriter.get(`/api/service-orgs/${org.id}`)).statusCode).toBe(404);
  });
});

describe('service persons', () => {
  type Person = {
    id: number;
    orgId: number;
    phone: string;
    version: number;
    certificateValid: boolean;
    name: string;
  };

  it('lists with masked phones; an organisation sees only its own persons (404 for others)', async () => {
    const all = (await w.underwriter.get('/api/service-persons')).json();
    expect(all.totalElements).toBe(3);
    expect(all.content.every((p: Person) => /^1\d{2}\*{4}\d{4}$/.test(p.phone))).toBe(true);
    const own = (await w.svc.get('/api/service-persons')).json();
    expect(own.content.map((p: Person) => p.id).sort()).toEqual([w.persons.a, w.persons.b].sort());
    expect((await w.svc.get(`/api/service-persons/${w.persons.c}`)).statusCode).toBe(404);
    expect((await w.svc2.post(`/api/service-persons/${w.persons.a}/unmask`)).statusCode).toBe(404);
  });

  it('an organisation cannot put persons into another organisation', async () => {
    const res = await w.svc.post('/api/service-persons', personForm(w.org2.id));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('服务机构：服务机构不存在');
  });

  it('updates keeping the masked phone; unmask is audited; stale version 409', async () => {
    const p = (await w.svc.get(`/api/service-persons/${w.persons.b}`)).json() as Person;
    const form = {
      ...personForm(w.org1.id, { name: '李培训', phone: p.phone }),
      id: p.id,
      version: p.version,
    };
    const res = await w.svc.post('/api/service-persons/update', { ...form, specialty: '安全生产培训' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await w.svc.post(`/api/service-persons/${p.id}/unmask`)).json()).toEqual({
      phone: '13800002222',
    });
    expect((await w.svc.post('/api/service-persons/update', form)).statusCode).toBe(409);
    const wrongMask = await w.svc.post('/api/service-persons/update', {
      ...form,
      version: p.version + 1,
      phone: '139****0000',
    });
    expect(wrongMask.statusCode).toBe(400);
  });

  it('deletes an unused person', async () => {
    const p = (
      await w.svc.post('/api/service-persons', personForm(w.org1.id, { name: '临时人员' }))
    ).json() as Person;
    expect((await w.svc2.post('/api/service-persons/delete', [p.id])).statusCode).toBe(404);
    expect((await w.svc.post('/api/service-persons/delete', [p.id])).json()).toEqual({ deleted: 1 });
  });

  it('refuses a certificate ending before it starts', async () => {
    const res = await w.underwriter.post(
      '/api/service-persons',
      personForm(w.org1.id, { certificateValidFrom: '2026-01-02', certificateValidTo: '2026-01-01' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('证书有效期止：不能早于证书有效期起');
  });
});

import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { MAX_MATERIAL_BYTES } from '@piibs/shared/material';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, PDF } from '../../../test/admin.ts';
import { bearer, tokenFor } from '../../../test/auth.ts';
import {
  attachMaterials,
  type Client,
  createWorld,
  customerForm,
  type World,
} from '../../../test/business.ts';
import { auditLog, materials, products } from '../../db/schema.ts';
import { materialsDir } from './storage.ts';

let w: World;
const tokens: Record<string, string> = {};
let entCustomerId: number;
let agentCustomerId: number;

// Small files of each accepted kind (only the first bytes matter to the server).
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF jpeg body')]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png body'),
]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64, 0)]);

beforeAll(async () => {
  w = await createWorld();
  for (const name of ['ent', 'ent2', 'ag', 'ag2', 'uw', 'nobody']) tokens[name] = await tokenFor(w.t, name);
  entCustomerId = await approvedCustomer(w.ent, { uscc: w.entUscc });
  agentCustomerId = await approvedCustomer(w.agent);
});
afterAll(async () => {
  await w.t.close();
  rmSync(w.t.config.dataDir, { recursive: true, force: true });
});

async function approvedCustomer(who: Client, over: Parameters<typeof customerForm>[0] = {}): Promise<number> {
  const res = await who.post('/api/customers', customerForm(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  const c = res.json();
  const task = (await w.underwriter.get(`/api/tasks/${c.openTaskId}`)).json();
  const d = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision: 'approve',
    version: task.version,
  });
  if (d.statusCode !== 200) throw new Error(d.body);
  return c.id;
}

async function newApplication(
  who: Client,
  customerId: number,
): Promise<{ id: number; number: string; version: number }> {
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  const res = await who.post('/api/applications', { productId: p!.id, customerId });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

type Target = { businessType: string; businessId: number };

function upload(
  who: string,
  target: Target,
  file: { name: string; type?: string; data: Buffer },
  docType = 'BUSINESS_LICENSE',
) {
  const body = multipart(
    { ...target, docType },
    { name: file.name, type: file.type ?? 'application/octet-stream', data: file.data },
  );
  return w.t.app.inject({
    method: 'POST',
    url: '/api/materials',
    headers: { ...bearer(tokens[who]!), 'content-type': body.contentType },
    payload: body.payload,
  });
}
const list = (who: string, t: Target) =>
  w.t.app.inject({
    method: 'GET',
    url: `/api/materials?businessType=${t.businessType}&businessId=${t.businessId}`,
    headers: bearer(tokens[who]!),
  });
const file = (who: string, id: number, kind = 'file') =>
  w.t.app.inject({ method: 'GET', url: `/api/materials/${id}/${kind}`, headers: bearer(tokens[who]!) });
const remove = (who: string, id: number) =>
  w.t.app.inject({ method: 'DELETE', url: `/api/materials/${id}`, headers: bearer(tokens[who]!) });

/** Every stored file under DATA_DIR/materials (relative keys). */
function storedKeys(): string[] {
  const root = materialsDir(w.t.config.dataDir);
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.\w+$/.test(f));
}

describe('upload and read by the record owner', () => {
  it('stores JPEG, PNG, WEBP and PDF under server-made keys, typed by content, and lists them', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const target = { businessType: 'application', businessId: a.id };
    const cases = [
      { name: '营业执照.jpg', data: JPEG, mime: 'image/jpeg', ext: 'jpg' },
      // The declared type and name do not matter: a PNG named .jpg is a PNG.
      { name: '../../etc/清单.jpg', data: PNG, mime: 'image/png', ext: 'png' },
      { name: 'scan.webp', data: WEBP, mime: 'image/webp', ext: 'webp' },
      { name: '投保单.pdf', data: PDF, mime: 'application/pdf', ext: 'pdf' },
    ];
    const ids: number[] = [];
    for (const c of cases) {
      const res = await upload(
        'ent',
        target,
        { name: c.name, type: 'image/gif', data: c.data },
        'APPLICATION_FORM',
      );
      expect(res.statusCode, res.body).toBe(200);
      const row = res.json();
      expect(row).toMatchObject({
        businessType: 'application',
        businessId: a.id,
        docType: 'APPLICATION_FORM',
        docTypeName: '投保单',
        mime: c.mime,
        sizeBytes: c.data.length,
        uploaderName: 'ent',
        fileUrl: `/api/materials/${row.id}/file`,
      });
      expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
      ids.push(row.id);
      const [stored] = await w.t.database.db.select().from(materials).where(eq(materials.id, row.id));
      expect(stored!.storageKey).toMatch(new RegExp(`^\\d{4}/\\d{2}/[0-9a-f-]{36}\\.${c.ext}$`));
      expect(stored!.originalName).toBe(c.name.split('/').pop());
    }
    const listed = await list('ent', target);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ totalElements: 4, editable: true, readOnlyReason: null });
    expect(listed.json().content.map((m: { id: number }) => m.id)).toEqual(ids);
    expect(listed.json().content[3].thumbnailUrl).toBeNull();

    const res = await file('ent', ids[0]!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    const pdf = await file('ent', ids[3]!);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(PDF)).toBe(true);
    expect((await file('ent', ids[1]!, 'thumbnail')).rawPayload.equals(PNG)).toBe(true);
    expect((await file('ent', ids[3]!, 'thumbnail')).statusCode).toBe(404);
    // The underwriter (application:list, data scope all) reads them but may not change them.
    const uw = await list('uw', target);
    expect(uw.statusCode).toBe(200);
    expect(uw.json()).toMatchObject({ totalElements: 4, editable: false });
    expect((await file('uw', ids[0]!)).statusCode).toBe(200);

    const audits = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'material'), eq(auditLog.action, 'upload')));
    expect(audits.filter((r) => ids.includes(Number(r.entityId)))).toHaveLength(4);
    expect(audits[0]).toMatchObject({ actorName: 'ent' });
  });

  it('refuses a renamed executable (400) and stores nothing', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const before = storedKeys();
    const res = await upload(
      'ent',
      { businessType: 'application', businessId: a.id },
      {
        name: 'x.jpg',
        type: 'image/jpeg',
        data: ELF,
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: '文件类型：仅支持 JPG、PNG、WEBP 或 PDF' });
    expect(storedKeys()).toEqual(before);
    expect((await list('ent', { businessType: 'application', businessId: a.id })).json().totalElements).toBe(
      0,
    );
  });

  it('accepts exactly 10 MB and answers 413 for one byte more, storing nothing', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const target = { businessType: 'application', businessId: a.id };
    const big = Buffer.alloc(MAX_MATERIAL_BYTES + 1, 0);
    PDF.copy(big);
    const before = storedKeys();
    const tooBig = await upload('ent', target, { name: 'big.pdf', data: big });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ status: 413, message: '文件大小：不能超过 10MB' });
    expect(storedKeys()).toEqual(before);
    const exact = await upload('ent', target, { name: 'ok.pdf', data: big.subarray(0, MAX_MATERIAL_BYTES) });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(exact.json().sizeBytes).toBe(MAX_MATERIAL_BYTES);
  });

  it('checks the fields: document type from the dictionary, business type, a file', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const target = { businessType: 'application', businessId: a.id };
    const bad = await upload('ent', target, { name: 'a.jpg', data: JPEG }, 'NO_SUCH_TYPE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('资料类型：字典中没有代码 NO_SUCH_TYPE');
    const kind = await upload(
      'ent',
      { businessType: 'planet', businessId: a.id },
      { name: 'a.jpg', data: JPEG },
    );
    expect(kind.statusCode).toBe(400);
    expect(kind.json().message).toMatch(/^业务类型：/);
    const body = multipart({ ...target, docType: 'OTHER' });
    const none = await w.t.app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...bearer(tokens.ent!), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('文件：请选择要上传的文件');
    const json = await w.ent.post('/api/materials', { ...target, docType: 'OTHER' });
    expect(json.statusCode).toBe(400);
    expect((await list('ent', { businessType: 'application', businessId: 0 })).json().message).toMatch(
      /^业务ID：/,
    );
  });
});

describe('the record by its business number, never its id', () => {
  it('the list names its record (投保单号, the customer’s name); the log shows the upload by them', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const appList = await list('ent', { businessType: 'application', businessId: a.id });
    expect(appList.json().businessNumber).toBe(a.number);
    const customer = (await w.ent.get(`/api/customers/${entCustomerId}`)).json();
    const customerList = await list('ent', { businessType: 'customer', businessId: entCustomerId });
    expect(customerList.json().businessNumber).toBe(customer.name);

    const res = await upload(
      'ent',
      { businessType: 'application', businessId: a.id },
      { name: '执照.pdf', data: PDF },
    );
    expect(res.statusCode, res.body).toBe(200);
    const logs = (await w.admin.get(`/api/logs?entity=material&number=${a.number}`)).json();
    expect(logs.totalElements).toBe(1);
    const entry = logs.content[0];
    expect(entry.record).toBe(`投保单 ${a.number}`);
    // (jsonb keeps its own key order)
    expect([...entry.lines].sort()).toEqual(
      [
        '业务类型：投保单',
        `业务记录：${a.number}`,
        '资料类型：营业执照',
        '文件名：执照.pdf',
        '文件类型：PDF',
        `文件大小：${PDF.length} B`,
      ].sort(),
    );
    expect(entry.lines.join('\n')).not.toMatch(/BUSINESS_LICENSE|application\/pdf|[0-9a-f]{64}/);
  });
});

describe('another enterprise\u2019s or agent\u2019s record answers 404', () => {
  it('list, upload, file and delete of an application', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const target = { businessType: 'application', businessId: a.id };
    const up = await upload('ent', target, { name: 'a.jpg', data: JPEG });
    const id = up.json().id as number;
    const before = storedKeys();
    for (const other of ['ent2', 'ag2', 'ag']) {
      expect((await list(other, target)).statusCode, other).toBe(404);
      expect((await upload(other, target, { name: 'b.jpg', data: JPEG })).statusCode, other).toBe(404);
      expect((await file(other, id)).statusCode, other).toBe(404);
      expect((await file(other, id, 'thumbnail')).statusCode, other).toBe(404);
      expect((await remove(other, id)).statusCode, other).toBe(404);
    }
    expect(storedKeys()).toEqual(before);
    // Signed in without the permission: 403.
    expect((await list('nobody', target)).statusCode).toBe(403);
    expect((await file('ent', id)).statusCode).toBe(200);
  });

  it('list, upload, file and delete of a customer (licence scans)', async () => {
    const target = { businessType: 'customer', businessId: agentCustomerId };
    const up = await upload('ag', target, { name: '营业执照.png', data: PNG });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ docType: 'BUSINESS_LICENSE', docTypeName: '营业执照' });
    const id = up.json().id as number;
    for (const other of ['ag2', 'ent', 'ent2']) {
      expect((await list(other, target)).statusCode, other).toBe(404);
      expect((await upload(other, target, { name: 'b.jpg', data: JPEG })).statusCode, other).toBe(404);
      expect((await file(other, id)).statusCode, other).toBe(404);
      expect((await remove(other, id)).statusCode, other).toBe(404);
    }
    // The enterprise keeps its own record's scans; the underwriter (customer:edit) may too.
    const own = await upload(
      'ent',
      { businessType: 'customer', businessId: entCustomerId },
      { name: 'l.pdf', data: PDF },
    );
    expect(own.statusCode, own.body).toBe(200);
    expect((await list('uw', target)).json()).toMatchObject({ totalElements: 1, editable: true });
    expect((await remove('ag', id)).statusCode).toBe(200);
    expect((await list('ag', target)).json().totalElements).toBe(0);
  });
});

describe('delete while editable', () => {
  it('soft-deletes in a draft (audited, bytes kept) and refuses with 409 once the application is approved', async () => {
    const a = await newApplication(w.ent, entCustomerId);
    const target = { businessType: 'application', businessId: a.id };
    const first = (await upload('ent', target, { name: 'a.jpg', data: JPEG })).json().id as number;
    const second = (await upload('ent', target, { name: 'b.pdf', data: PDF })).json().id as number;

    const del = await remove('ent', first);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    const [row] = await w.t.database.db.select().from(materials).where(eq(materials.id, first));
    expect(row!.deletedAt).not.toBeNull();
    expect(storedKeys()).toContain(row!.storageKey);
    expect((await file('ent', first)).statusCode).toBe(404);
    expect((await remove('ent', first)).statusCode).toBe(404);
    expect((await list('ent', target)).json().content.map((m: { id: number }) => m.id)).toEqual([second]);
    const [audit] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'material'),
          eq(auditLog.action, 'delete'),
          eq(auditLog.entityId, String(first)),
        ),
      );
    expect(audit).toMatchObject({
      actorName: 'ent',
      detail: { businessType: 'application', businessId: a.id },
    });
    // The underwriter may read but not change the applicant's materials.
    expect((await remove('uw', second)).statusCode).toBe(403);

    // Submitted (with the rest of what the product requires): frozen while under review, and after approval.
    expect(await attachMaterials(w.ent, a.id)).toEqual(['INSURED_LIST']);
    const sub = await w.ent.post(`/api/applications/${a.id}/submit`, { version: a.version });
    expect(sub.statusCode, sub.body).toBe(200);
    const pendingDel = await remove('ent', second);
    expect(pendingDel.statusCode).toBe(409);
    expect(pendingDel.json().message).toBe('投保单当前状态为「待审核」，不能修改影像资料');
    const task = (await w.underwriter.get(`/api/tasks/${sub.json().openTaskId}`)).json();
    const ok = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
      decision: 'approve',
      version: task.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await remove('ent', second);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toMatch(/不能修改影像资料/);
    expect((await upload('ent', target, { name: 'c.jpg', data: JPEG })).statusCode).toBe(409);
    expect((await list('ent', target)).json()).toMatchObject({
      totalElements: 2,
      editable: false,
      readOnlyReason: expect.stringMatching(/不能修改影像资料/),
      editableDocTypes: [],
    });
    expect((await file('ent', second)).statusCode).toBe(200);
  });
});

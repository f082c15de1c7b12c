// Named insured lists (从业人员名单) through the API: the template, a list entered or imported (each bad row
// named, nothing half-imported), the headcount and premium following the list, submission needing it, the list
// on the policy (masked) and its e-policy annex, and nobody else reading it.

import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, readXlsx } from '../../../test/admin.ts';
import { bearer, tokenFor } from '../../../test/auth.ts';
import { attachMaterials } from '../../../test/business.ts';
import { idCard } from '../../../test/id-card.ts';
import { pdfText } from '../../../test/pdf.ts';
import { auditLog, products } from '../../db/schema.ts';
import { cashier, createPayWorld, type PayWorld, startPay } from '../payments/test-fixtures.ts';

let w: PayWorld;
let token: string;
let productId: number;
beforeAll(async () => {
  w = await createPayWorld();
  token = await tokenFor(w.t, 'ent');
  const [p] = await w.t.database.db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  productId = p!.id;
  await w.t.database.db
    .update(products)
    .set({ namedInsuredRequired: true })
    .where(eq(products.id, productId));
});
afterAll(() => w.t.close());

const A = idCard('19900101', 123);
const B = idCard('19851231', 456);
const C = idCard('20000229', 789);

const put = (id: number, body: unknown, who = token) =>
  w.t.app.inject({
    method: 'PUT',
    url: `/api/applications/${id}/insuredPersons`,
    headers: bearer(who),
    payload: body as object,
  });

async function sheet(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const s = book.addWorksheet('从业人员名单');
  for (const r of rows) s.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}
async function importSheet(id: number, version: number, data: Buffer) {
  const body = multipart({ version }, { name: '名单.xlsx', type: 'application/octet-stream', data });
  return w.t.app.inject({
    method: 'POST',
    url: `/api/applications/${id}/insuredPersons/import`,
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}
async function draft() {
  const res = await w.ent.post('/api/applications', { productId, customerId: w.entCustomerId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; version: number; headcount: number | null; premiumFen: number };
}
const load = async (id: number) => (await w.ent.get(`/api/applications/${id}`)).json();

describe('从业人员名单', () => {
  it('the template is an xlsx with the two columns', async () => {
    const res = await w.ent.get('/api/applications/insuredPersons/template');
    expect(res.statusCode).toBe(200);
    expect(await readXlsx(res.rawPayload)).toEqual([['姓名', '身份证号码']]);
  });

  it('a list with a bad row is refused whole, each row named in Chinese; nothing saved', async () => {
    const a = await draft();
    const bad = await put(a.id, {
      version: a.version,
      persons: [
        { name: '张三', idNumber: A },
        { name: '李四', idNumber: `${A.slice(0, 17)}${A[17] === '1' ? '2' : '1'}` },
        { name: '', idNumber: B },
        { name: '王五', idNumber: A.toLowerCase() },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('从业人员名单有 3 处错误，未导入');
    expect(bad.json().errors.map((e: { message: string }) => e.message)).toEqual([
      '第 2 行：身份证号码：请输入正确的18位居民身份证号码',
      '第 3 行：姓名：不能为空',
      '第 4 行：身份证号码与第 1 行重复',
    ]);
    expect((await w.ent.get(`/api/applications/${a.id}/insuredPersons`)).json()).toMatchObject({
      required: true,
      count: 0,
    });

    // The same from an .xlsx: rows counted as on the sheet (row 1 is the header); nothing imported.
    const imported = await importSheet(
      a.id,
      a.version,
      await sheet([
        ['姓名', '身份证号码'],
        ['张三', A],
        ['李四', 'abc'],
      ]),
    );
    expect(imported.statusCode).toBe(400);
    expect(imported.json().errors).toEqual([
      { field: 'persons', message: '第 3 行：身份证号码：请输入正确的18位居民身份证号码' },
    ]);
    expect((await load(a.id)).version).toBe(a.version);
    const noHeader = await importSheet(a.id, a.version, await sheet([['张三', A]]));
    expect(noHeader.json().message).toBe('文件：第 1 行须为表头「姓名」「身份证号码」（请使用模板）');
  });

  it('an import sets the list; the headcount and premium follow it; numbers shown masked, audited masked', async () => {
    const a = await draft();
    const res = await importSheet(
      a.id,
      a.version,
      await sheet([
        ['姓名', '身份证号码'],
        ['张三', A],
        ['李四', B],
        ['王五', C],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      required: true,
      count: 3,
      persons: [
        { sort: 1, name: '张三', idNumberMasked: `${A.slice(0, 4)}**********${A.slice(-4)}` },
        { sort: 2, name: '李四', idNumberMasked: `${B.slice(0, 4)}**********${B.slice(-4)}` },
        { sort: 3, name: '王五', idNumberMasked: `${C.slice(0, 4)}**********${C.slice(-4)}` },
      ],
    });
    expect(res.body).not.toContain(A);
    const now = await load(a.id);
    expect(now.headcount).toBe(3);
    const quote = await w.ent.post(`/api/products/${productId}/quote`, {
      customerId: w.entCustomerId,
      headcount: 3,
    });
    expect(now.premiumFen).toBe(quote.json().premiumFen);
    const [entry] = await w.t.database.db.select().from(auditLog).where(eq(auditLog.action, 'insured_list'));
    expect(JSON.stringify(entry!.detail)).not.toContain(A);
    expect(JSON.stringify(entry!.detail)).toContain(`${A.slice(0, 4)}**********${A.slice(-4)}`);
    // Another enterprise: 404, and may not change it.
    const other = await tokenFor(w.t, 'ent2');
    expect(
      (
        await w.t.app.inject({
          method: 'GET',
          url: `/api/applications/${a.id}/insuredPersons`,
          headers: bearer(other),
        })
      ).statusCode,
    ).toBe(404);
    expect((await put(a.id, { version: now.version, persons: [] }, other)).statusCode).toBe(404);
  });

  it('submission needs the list and a headcount equal to it; the policy and its e-policy annex carry it, masked', async () => {
    const a = await draft();
    await attachMaterials(w.ent, a.id);
    const without = await w.ent.post(`/api/applications/${a.id}/submit`, { version: a.version });
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe('从业人员名单：请录入或导入从业人员名单');
    const saved = await put(a.id, {
      version: a.version,
      persons: [
        { name: '张三', idNumber: A },
        { name: '李四', idNumber: B },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    let app = await load(a.id);
    const drifted = await w.ent.post(`/api/applications/${a.id}/draft`, {
      version: app.version,
      headcount: 5,
    });
    app = drifted.json();
    const mismatch = await w.ent.post(`/api/applications/${a.id}/submit`, { version: app.version });
    expect(mismatch.json().message).toBe('参保人数：须与从业人员名单人数（2 人）一致');
    app = (
      await w.ent.post(`/api/applications/${a.id}/draft`, { version: app.version, headcount: 2 })
    ).json();
    const sent = await w.ent.post(`/api/applications/${a.id}/submit`, { version: app.version });
    expect(sent.statusCode, sent.body).toBe(200);
    const task = (await w.underwriter.get(`/api/tasks/${sent.json().openTaskId}`)).json();
    await w.underwriter.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version });
    const start = await startPay(w.ent, a.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    const policyId = (await w.ent.get(`/api/payments/${start.payId}`)).json().policyId as number;
    const list = (await w.ent.get(`/api/policies/${policyId}/insuredPersons`)).json();
    expect(list).toMatchObject({ count: 2, persons: [{ name: '张三' }, { name: '李四' }] });
    const pdf = await w.ent.get(`/api/policies/${policyId}/pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('附件：从业人员名单（共2人）');
    expect(text).toContain(`${A.slice(0, 4)}**********${A.slice(-4)}`);
    expect(text).not.toContain(A);
    expect((await w.ent2.get(`/api/policies/${policyId}/insuredPersons`)).statusCode).toBe(404);
  });
  it('a saved person is kept by their 序号 (the form has only the masked number); an unknown 序号 is refused whole', async () => {
    const a = await draft();
    const first = await put(a.id, {
      version: a.version,
      persons: [
        { name: '张三', idNumber: A },
        { name: '李四', idNumber: B },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    let app = await load(a.id);
    const stale = await put(a.id, {
      version: app.version,
      persons: [{ sort: 9 }, { name: '王五', idNumber: C }],
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errors).toEqual([
      { field: 'persons', message: '第 1 行：该人员已不在已保存的名单中，请刷新后重试' },
    ]);
    const kept = await put(a.id, {
      version: app.version,
      persons: [{ sort: 2 }, { name: '王五', idNumber: C }],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().persons.map((p: { name: string }) => p.name)).toEqual(['李四', '王五']);
    app = await load(a.id);
    expect(app.headcount).toBe(2);
    // Keeping someone and typing their number again is the same person twice.
    const twice = await put(a.id, {
      version: app.version,
      persons: [{ sort: 1 }, { name: '李四', idNumber: B }],
    });
    expect(twice.json().errors).toEqual([{ field: 'persons', message: '第 2 行：身份证号码与第 1 行重复' }]);
  });
});

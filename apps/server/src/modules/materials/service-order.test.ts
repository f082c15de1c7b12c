// Photos of an on-site service (business type 'service_order') through the /api/materials routes: only the
// order's organisation uploads, and only while the order is IN_SERVICE; the enterprise reads them.
import { rmSync } from 'node:fs';
import { shanghaiToday } from '@piibs/shared/application-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../../test/auth.ts';
import { type Client, createRiskWorld, dayInPeriod, type RiskWorld } from '../risk-control/test-fixtures.ts';

let w: RiskWorld;
const tokens: Record<string, string> = {};
let orderId: number;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png body of a site photo'),
]);

function multipart(fields: Record<string, string | number>, file: { name: string; data: Buffer }) {
  const boundary = '----piibsServicePhotoBoundary71c2';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file.data,
    Buffer.from('\r\n'),
    Buffer.from(`--${boundary}--\r\n`),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(chunks) };
}

const upload = (who: string, businessId = orderId) => {
  const body = multipart(
    { businessType: 'service_order', businessId, docType: 'SERVICE_RECORD' },
    { name: '现场照片.png', data: PNG },
  );
  return w.t.app.inject({
    method: 'POST',
    url: '/api/materials',
    headers: { ...bearer(tokens[who]!), 'content-type': body.contentType },
    payload: body.payload,
  });
};
const list = (who: string) =>
  w.t.app.inject({
    method: 'GET',
    url: `/api/materials?businessType=service_order&businessId=${orderId}`,
    headers: bearer(tokens[who]!),
  });

async function act(who: Client, action: string, body: Record<string, unknown> = {}) {
  const { version } = (await w.admin.get(`/api/prevention/orders/${orderId}`)).json() as { version: number };
  const res = await who.post(`/api/prevention/orders/${orderId}/${action}`, { version, ...body });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  w = await createRiskWorld();
  for (const name of ['svc', 'svc2', 'svc3', 'ent', 'ent2', 'uw']) tokens[name] = await tokenFor(w.t, name);
  const plan = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items`, {
    itemType: 'HAZARD_INSPECTION',
    content: '生产车间隐患排查',
    frequency: 'ONCE',
    unitCostFen: 1_000,
    orgId: w.org1.id,
    personIds: [w.persons.a],
  });
  expect(plan.statusCode, plan.body).toBe(200);
  const items = plan.json().items as { id: number }[];
  const order = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
    planItemId: items[items.length - 1]!.id,
    scheduledDate: dayInPeriod(w.policy, 3),
  });
  expect(order.statusCode, order.body).toBe(200);
  orderId = order.json().id;
});
afterAll(async () => {
  await w.t.close();
  rmSync(w.t.config.dataDir, { recursive: true, force: true });
});

describe('service order photos', () => {
  it('are refused before the service starts (409), even to the organisation', async () => {
    await act(w.svc, 'accept');
    const res = await upload('svc');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toContain('不能修改现场照片');
  });

  it('upload to an in-service order by its organisation; the enterprise reads but may not change them', async () => {
    await act(w.svc, 'start');
    const res = await upload('svc');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      businessType: 'service_order',
      businessId: orderId,
      mime: 'image/png',
    });
    const mine = (await list('svc')).json();
    expect(mine).toMatchObject({ totalElements: 1, editable: true, readOnlyReason: null });
    const seen = (await list('ent')).json();
    expect(seen).toMatchObject({ totalElements: 1, editable: false });
    expect((await upload('ent')).statusCode).toBe(403);
    expect((await upload('uw')).statusCode).toBe(403);
  });

  it('are invisible to another organisation, an organisation-less service account and another enterprise', async () => {
    for (const who of ['svc2', 'svc3', 'ent2']) {
      expect((await upload(who)).statusCode, who).toBe(404);
      expect((await list(who)).statusCode, who).toBe(404);
    }
  });

  it('freeze once the record is submitted (409)', async () => {
    await act(w.svc, 'record', {
      serviceDate: shanghaiToday(),
      findings: '对生产车间进行了隐患排查。',
      participants: [{ name: '王安全', side: 'ORG' }],
    });
    await act(w.svc, 'submit');
    const res = await upload('svc');
    expect(res.statusCode, res.body).toBe(409);
    expect((await list('svc')).json()).toMatchObject({ totalElements: 1, editable: false });
  });
});

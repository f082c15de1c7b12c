// GET /api/prevention/archive/pdf: the enterprise's service archive as a PDF summary, with the visibility of the
// xlsx archive (nothing visible → 404).
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf.ts';
import { pdfsig } from '../../../test/pdfsig.ts';
import { type Client, createRiskWorld, dayInPeriod, type RiskWorld } from './test-fixtures.ts';

let w: RiskWorld;
let orderNumber: string;
beforeAll(async () => {
  w = await createRiskWorld();
  const today = shanghaiToday();
  const ok = async (p: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    const res = await p;
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json() as { id: number; number: string; version: number; items: { id: number }[] };
  };
  const plan = await ok(
    w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items`, {
      itemType: 'HAZARD_INSPECTION',
      content: '生产车间、仓库、配电房隐患排查',
      frequency: 'QUARTERLY',
      unitCostFen: 1_000,
      orgId: w.org1.id,
      personIds: [w.persons.a],
    }),
  );
  const order = await ok(
    w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
      planItemId: plan.items.at(-1)!.id,
      scheduledDate: dayInPeriod(w.policy, 3),
    }),
  );
  orderNumber = order.number;
  const act = async (who: Client, action: string, body: Record<string, unknown> = {}) => {
    const { version } = await ok(w.admin.get(`/api/prevention/orders/${order.id}`));
    await ok(who.post(`/api/prevention/orders/${order.id}/${action}`, { version, ...body }));
  };
  await act(w.svc, 'accept');
  await act(w.svc, 'start');
  await act(w.svc, 'record', {
    serviceDate: today,
    address: '镇江市润州区南徐大道 88 号',
    findings: '对生产车间、仓库和配电房进行了隐患排查。',
    hazards: [
      {
        description: '二号车间消防通道堆放物料',
        location: '二号车间',
        level: 'MAJOR',
        measure: '立即清理',
        deadline: addDays(today, 7),
      },
    ],
    participants: [{ name: '王安全', side: 'ORG', position: '高级工程师' }],
  });
  await act(w.svc, 'submit');
  await act(w.ent, 'confirm', { satisfaction: 5, comment: '服务专业' });
  await ok(w.ent.post(`/api/prevention/orders/${order.id}/complaints`, { content: '现场服务时间过短' }));
});
afterAll(() => w.t.close());

describe('the service archive PDF', () => {
  it('answers the enterprise its own archive: name, code, fund, orders, hazards, complaints', async () => {
    const res = await w.ent.get('/api/prevention/archive/pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Sealed and signed by the insurer like every issued document.
    expect(pdfsig(res.rawPayload)).toEqual([
      expect.objectContaining({ validation: 'Signature is Valid.', hash: 'SHA-256', wholeDocument: true }),
    ]);
    const disposition = decodeURIComponent(String(res.headers['content-disposition']));
    expect(disposition).toMatch(/^attachment; filename\*=UTF-8''\d+-事故预防服务档案-/);
    expect(disposition).toContain(`事故预防服务档案-${w.policy.holderName}.pdf`);

    const { fund } = (await w.ent.get(`/api/prevention/plans/${w.seqNo}`)).json() as {
      fund: { totalFen: number; plannedFen: number; spentFen: number; leftFen: number };
    };
    expect(fund.spentFen).toBe(1_000);
    const flat = await pdfText(res.rawPayload);
    expect(flat).toContain('事故预防服务档案');
    expect(flat).toContain(w.policy.holderName.replace(/\s+/g, ''));
    expect(flat).toContain(w.entUscc);
    expect(flat).toContain(w.policy.number);
    expect(flat).toContain(orderNumber);
    for (const fen of [fund.totalFen, fund.plannedFen, fund.spentFen, fund.leftFen])
      expect(flat).toContain(formatFen(fen));
    expect(flat).toContain('二号车间消防通道堆放物料');
    expect(flat).toContain('重大');
    expect(flat).toContain('现场服务时间过短');
    expect(flat).toContain('5分');
    expect(flat).toContain('生成时间');
  });

  it('answers staff and the serving organisation by code; 400 without one', async () => {
    expect((await w.underwriter.get('/api/prevention/archive/pdf')).statusCode).toBe(400);
    for (const who of [w.underwriter, w.svc]) {
      const res = await who.get(`/api/prevention/archive/pdf?uscc=${w.entUscc.toLowerCase()}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(await pdfText(res.rawPayload)).toContain(orderNumber);
    }
  });

  it('answers 404 for an enterprise the caller sees nothing of', async () => {
    expect((await w.ent.get(`/api/prevention/archive/pdf?uscc=${w.ent2Uscc}`)).statusCode).toBe(404);
    expect((await w.svc2.get(`/api/prevention/archive/pdf?uscc=${w.entUscc}`)).statusCode).toBe(404);
    expect((await w.svcLoose.get(`/api/prevention/archive/pdf?uscc=${w.entUscc}`)).statusCode).toBe(404);
  });

  it('gives another enterprise its own archive, without the first one’s orders', async () => {
    const res = await w.ent2.get('/api/prevention/archive/pdf');
    expect(res.statusCode, res.body).toBe(200);
    const flat = await pdfText(res.rawPayload);
    expect(flat).toContain(w.ent2Uscc);
    expect(flat).toContain(w.policy2.holderName.replace(/\s+/g, ''));
    expect(flat).toContain(w.policy2.number);
    expect(flat).toContain('暂无服务单');
    expect(flat).not.toContain(w.policy.number);
    expect(flat).not.toContain(w.entUscc);
  });
});

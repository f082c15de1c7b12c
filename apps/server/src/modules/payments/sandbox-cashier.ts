// The sandbox gateway's cashier (收银台): public HTML pages outside /api, served only with the sandbox provider.
//   GET  /sandbox-pay/cashier?merchantId&orderNo&chargeNo&amountFen&expires&sign   the page (signed link)
//   POST /sandbox-pay/cashier   (form) action=pay|cancel [, skipNotify=1]   → 303 to the result page
// Plain HTML and a form, no script (the CSP allows none inline). Marked 「沙箱支付 · 测试环境」 everywhere.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { systemSettings } from '../../db/schema.ts';
import type { SandboxProvider } from './sandbox.ts';

const SIGNED = ['merchantId', 'orderNo', 'chargeNo', 'amountFen', 'expires', 'sign'] as const;
const MARK = '沙箱支付 · 测试环境';

/** Where the gateway sends the payer back: the web app's payment result page. */
export const resultPagePath = (orderNo: string, result: 'success' | 'cancel' | 'fail') =>
  `/piibs/insured/paymentWebResult/${encodeURIComponent(orderNo)}/${result}`;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
body{margin:0;font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;background:#f3f5f8;color:#222}
.mark{background:#fa8c16;color:#fff;text-align:center;padding:10px;font-weight:600;letter-spacing:2px}
main{max-width:460px;margin:32px auto;background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px}
h1{font-size:20px;margin:0 0 4px}.sub{color:#888;font-size:13px;margin-bottom:20px}
dl{display:grid;grid-template-columns:96px 1fr;gap:10px 12px;margin:0 0 20px}dt{color:#888}dd{margin:0;word-break:break-all}
.amount{font-size:28px;color:#f5222d;font-weight:600}
.opts{font-size:13px;color:#666;margin:0 0 18px}
.btns{display:flex;gap:12px}button{flex:1;font-size:16px;padding:10px;border-radius:6px;border:1px solid #d9d9d9;background:#fff;cursor:pointer}
button.pay{background:#1677ff;border-color:#1677ff;color:#fff}
.msg{padding:12px;border-radius:6px;background:#fff2f0;border:1px solid #ffccc7;margin-bottom:16px}
.ok{background:#f6ffed;border-color:#b7eb8f}a{color:#1677ff}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)} - ${MARK}</title><style>${STYLE}</style></head><body><div class="mark">${MARK} · 不会产生真实扣款</div><main>${body}</main></body></html>`;
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(html);
}

const problem = (reply: FastifyReply, status: number, message: string, back?: string) =>
  send(
    reply,
    status,
    page(
      '无法支付',
      `<h1>无法支付</h1><div class="msg">${esc(message)}</div>${back ? `<p><a href="${esc(back)}">返回商户查看支付结果</a></p>` : ''}`,
    ),
  );

async function merchantName(app: FastifyInstance, fallback: string): Promise<string> {
  const [row] = await app.deps.database.db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, 'organisation'));
  const name = (row?.value as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : fallback;
}

export function registerSandboxCashier(app: FastifyInstance, sandbox: SandboxProvider): void {
  app.get('/cashier', { schema: { hide: true } }, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const charge = await sandbox.chargeOfLink(q);
    if (!charge) return problem(reply, 400, '支付链接无效：签名校验失败或订单不存在。');
    const back = resultPagePath(charge.orderNo, charge.status === 'PAID' ? 'success' : 'fail');
    if (charge.status === 'PAID')
      return send(
        reply,
        200,
        page(
          '订单已支付',
          `<h1>订单已支付</h1><div class="msg ok">该订单已于 ${esc(formatTime(charge.paidAt ?? new Date()))} 支付成功，无需重复支付。</div><p><a href="${esc(back)}">返回商户查看支付结果</a></p>`,
        ),
      );
    if (charge.status === 'CLOSED' || charge.expiresAt.getTime() <= Date.now())
      return problem(reply, 409, '订单已关闭或已超过支付时限，不能支付。', back);
    const hidden = SIGNED.map((k) => `<input type="hidden" name="${k}" value="${esc(String(q[k]))}">`).join(
      '',
    );
    const body = `<h1>收银台</h1><div class="sub">${MARK}：仅用于联调与演示，确认支付不会扣款。</div>
<dl><dt>商户</dt><dd>${esc(await merchantName(app, charge.merchantId))}（${esc(charge.merchantId)}）</dd>
<dt>订单号</dt><dd>${esc(charge.orderNo)}</dd>
<dt>商品</dt><dd>${esc(charge.subject)}</dd>
<dt>支付时限</dt><dd>${esc(formatTime(charge.expiresAt))}</dd>
<dt>应付金额</dt><dd class="amount">${esc(formatFen(charge.amountFen))}</dd></dl>
<form method="post" action="/sandbox-pay/cashier">${hidden}
<p class="opts"><label><input type="checkbox" name="skipNotify" value="1"> 不发送支付结果通知（模拟回调丢失，结果页将主动查询）</label></p>
<div class="btns"><button class="pay" type="submit" name="action" value="pay">确认支付</button><button type="submit" name="action" value="cancel">取消支付</button></div></form>`;
    return send(reply, 200, page('收银台', body));
  });

  app.post('/cashier', { schema: { hide: true } }, async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const charge = await sandbox.chargeOfLink(form);
    if (!charge) return problem(reply, 400, '支付请求无效：签名校验失败或订单不存在。');
    if (form.action === 'cancel') return reply.redirect(resultPagePath(charge.orderNo, 'cancel'), 303);
    if (form.action !== 'pay') return problem(reply, 400, '请选择确认支付或取消支付。');
    const paid = await sandbox.pay(charge.chargeNo, { notify: form.skipNotify !== '1' });
    if (!paid.ok) {
      const why = paid.reason === 'NOT_FOUND' ? '订单不存在。' : '订单已关闭或已超过支付时限，不能支付。';
      return problem(reply, 409, why, resultPagePath(charge.orderNo, 'fail'));
    }
    return reply.redirect(resultPagePath(charge.orderNo, 'success'), 303);
  });
}

// Test fixtures of the sales and renewal tests (not a test file): issued policies made through the real API.
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import type { Client } from '../../../test/business.ts';
import { cashier, type PayWorld, pendingPayment, startPay } from '../payments/test-fixtures.ts';

/** An application of `who` for `customerId`, brought through payment to an issued policy; answers its id. */
export async function issuedPolicy(w: PayWorld, who: Client, customerId: number, coinsured = false) {
  const a = await pendingPayment(
    w,
    who,
    customerId,
    coinsured
      ? {
          coinsurers: [
            { insurerCode: ISSUER_CODE, lead: true, share: '70' },
            { insurerCode: 'CPIC', lead: false, share: '30' },
          ],
        }
      : {},
  );
  const start = await startPay(who, a.id);
  const res = await cashier(w, start.cashierUrl, 'pay');
  if (res.statusCode !== 303) throw new Error(res.body);
  const result = (await who.get(`/api/payments/${start.payId}`)).json();
  if (!result.policyId) throw new Error(`not issued: ${JSON.stringify(result)}`);
  return result.policyId as number;
}

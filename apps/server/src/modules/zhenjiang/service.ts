// The ZhenJiang city channel (镇江): pre-fills a new work-safety application from an approved customer. Nothing
// is stored here; the application tables and their submission come with the application module.

import { defaultEnd, earliestStart } from '@piibs/shared/application-status';
import type { CustomerRow } from '@piibs/shared/customer';
import { type ApplicantInitResult, type applicantInitBody, ZHENJIANG_CHANNEL } from '@piibs/shared/zhenjiang';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { getCustomer, getCustomerByUscc } from '../customers/service.ts';
import { availableProducts } from '../products/service.ts';

export const NOT_APPROVED = '投保人尚未审核通过';

const party = (c: CustomerRow) => ({
  customerId: c.id,
  uscc: c.uscc,
  name: c.name,
  industrySection: c.industrySection,
  industryDivision: c.industryDivision,
  region: c.region,
  address: c.address,
  legalRepresentative: c.legalRepresentative,
  contactName: c.contactName,
  phone: c.phone,
  headcount: c.headcount,
  licenceNo: c.licenceNo,
});

export async function applicantInit(
  db: Db,
  viewer: CustomerViewer,
  body: z.infer<typeof applicantInitBody>,
): Promise<ApplicantInitResult> {
  const customer =
    body.customerId !== undefined
      ? await getCustomer(db, viewer, body.customerId)
      : await getCustomerByUscc(db, viewer, body.uscc!);
  if (customer.reviewStatus !== 'approved') throw badRequest(NOT_APPROVED);
  const inZhenjiang = customer.region.startsWith(ZHENJIANG_CHANNEL.region.slice(0, 4));
  const region = inZhenjiang ? customer.region : ZHENJIANG_CHANNEL.region;
  const regionName =
    region === ZHENJIANG_CHANNEL.region ? ZHENJIANG_CHANNEL.regionName : (customer.regionName ?? region);
  const [product] = await availableProducts(db, { productClass: 'work_safety', region });
  const death = product?.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
  // No back-dating: cover starts at 00:00 tomorrow (Asia/Shanghai).
  const startDate = earliestStart();
  return {
    channel: ZHENJIANG_CHANNEL.code,
    channelName: ZHENJIANG_CHANNEL.name,
    region,
    regionName,
    policyholderType: '1',
    product: product
      ? {
          id: product.id,
          code: product.code,
          name: product.name,
          productClass: product.productClass,
          allowsCoinsurance: product.allowsCoinsurance,
          rateTableId: product.activeRateTable?.id ?? null,
        }
      : null,
    applicant: party(customer),
    insured: party(customer),
    period: { startDate, endDate: defaultEnd(startDate) },
    headcount: customer.headcount,
    perPersonLimitFen: death?.perPersonLimitFen ?? null,
    preventionRatio: product?.preventionRatioMin ?? null,
  };
}

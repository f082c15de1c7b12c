// The ZhenJiang city channel: POST /api/inputPlaInsurance/ZhenJiang/applicantInit pre-fills a new
// work-safety application from an approved customer. Import it as `@piibs/shared/zhenjiang`.
import { z } from 'zod';
import { usccField } from './customer.ts';
import { PRODUCT_CLASSES } from './rating.ts';

export const ZHENJIANG_CHANNEL = Object.freeze({
  code: 'ZHENJIANG',
  name: '镇江市安全生产责任保险服务平台',
  /** 镇江市 (GB/T 2260). */
  region: '321100',
  regionName: '镇江市',
});

/** Either the customer's id or its code. */
export const applicantInitBody = z
  .object({
    customerId: z.number().int().positive().optional().meta({ title: '投保人ID' }),
    uscc: usccField.optional(),
  })
  .refine((b) => b.customerId !== undefined || b.uscc !== undefined, {
    path: ['customerId'],
    error: '请提供投保人ID或统一社会信用代码',
  });
export type ApplicantInitBody = z.input<typeof applicantInitBody>;

const party = z.object({
  customerId: z.number(),
  uscc: z.string(),
  name: z.string(),
  industrySection: z.string(),
  industryDivision: z.string(),
  region: z.string(),
  address: z.string(),
  legalRepresentative: z.string(),
  contactName: z.string(),
  /** Masked; the application keeps the customer's id and reads the number on the server. */
  phone: z.string(),
  headcount: z.number(),
  licenceNo: z.string().nullable(),
});

/** A new-application draft (nothing is stored). */
export const applicantInitResult = z.object({
  channel: z.string(),
  channelName: z.string(),
  /** The customer's county when it lies in 镇江市, else 321100. */
  region: z.string(),
  regionName: z.string(),
  /** '1': an enterprise (dictionary policyholder_type). */
  policyholderType: z.literal('1'),
  /** The region's default work-safety product (enabled, in force today), if any. */
  product: z
    .object({
      id: z.number(),
      code: z.string(),
      name: z.string(),
      productClass: z.enum(PRODUCT_CLASSES),
      allowsCoinsurance: z.boolean(),
      rateTableId: z.number().nullable(),
    })
    .nullable(),
  applicant: party,
  /** Work-safety insurance covers the enterprise's own employees: the insured is the applicant. */
  insured: party,
  /** From 00:00 of startDate (tomorrow, Asia/Shanghai) to 24:00 of endDate (one year). */
  period: z.object({ startDate: z.string(), endDate: z.string() }),
  headcount: z.number(),
  /** The product's death/disability limit per person (≥ 400,000 yuan). */
  perPersonLimitFen: z.number().nullable(),
  /** The product's floor of the accident-prevention ratio (micro-percent). */
  preventionRatio: z.number().nullable(),
});
export type ApplicantInitResult = z.infer<typeof applicantInitResult>;

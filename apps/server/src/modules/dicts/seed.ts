// The dictionaries every installation starts with, written on first start (when the dict table is empty) for
// demo and real installations alike. Industries and regions come from the reference data in src/db/data/
// (see its README for sources and licences), read at run time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUSINESS_SOURCES } from '@piibs/shared/sales';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dictDetails, dicts } from '../../db/schema.ts';
import { appliedSeedKeys, recordSeedKeys } from '../../lib/seed-keys.ts';

interface Node {
  code: string;
  name: string;
  children?: Node[];
}

export interface SeedDict {
  name: string;
  description: string;
  /** [value, label] in display order. */
  entries: [string, string][];
}

const dataDir = path.join(import.meta.dirname, '../../db/data');
const readTree = (file: string): Node[] =>
  JSON.parse(readFileSync(path.join(dataDir, file), 'utf8')) as Node[];

/** Jiangsu's prefectures and Zhenjiang's counties, by GB/T 2260 code. */
function regionDicts(): SeedDict[] {
  const jiangsu = readTree('regions.json').find((p) => p.code === '320000');
  const zhenjiang = jiangsu?.children?.find((c) => c.code === '321100');
  if (!jiangsu || !zhenjiang) throw new Error('regions.json: 江苏省 320000 / 镇江市 321100 missing');
  return [
    {
      name: 'region_jiangsu',
      description: '江苏省地级行政区（GB/T 2260 代码）',
      entries: (jiangsu.children ?? []).map((c) => [c.code, c.name]),
    },
    {
      name: 'region_zhenjiang',
      description: '镇江市县级行政区（GB/T 2260 代码）',
      entries: (zhenjiang.children ?? []).map((c) => [c.code, c.name]),
    },
  ];
}

/** GB/T 4754-2017 sections (门类, A–T) and divisions (大类, 01–97). */
function industryDicts(): SeedDict[] {
  const sections = readTree('industries.json');
  return [
    {
      name: 'industry_section',
      description: '国民经济行业分类门类（GB/T 4754-2017）',
      entries: sections.map((s) => [s.code, s.name]),
    },
    {
      name: 'industry_division',
      description: '国民经济行业分类大类（GB/T 4754-2017，代码前两位）',
      entries: sections.flatMap((s) => (s.children ?? []).map((d): [string, string] => [d.code, d.name])),
    },
  ];
}

const FIXED: SeedDict[] = [
  {
    name: 'id_type',
    description: '证件类型',
    entries: [
      ['01', '居民身份证'],
      ['02', '护照'],
      ['03', '港澳居民来往内地通行证'],
      ['04', '台湾居民来往大陆通行证'],
      ['05', '港澳台居民居住证'],
      ['06', '外国人永久居留身份证'],
      ['07', '军官证'],
      ['10', '统一社会信用代码'],
      ['11', '营业执照'],
      ['12', '组织机构代码证'],
      ['99', '其他'],
    ],
  },
  {
    name: 'application_status',
    description: '投保单状态',
    entries: [
      ['DRAFT', '草稿'],
      ['PENDING_REVIEW', '待审核'],
      ['RETURNED', '已退回'],
      ['DECLINED', '已拒保'],
      ['PENDING_PAYMENT', '待支付'],
      ['PAID', '已支付'],
      ['PAYMENT_EXPIRED', '支付已过期'],
      ['CANCELLED', '已撤销'],
      ['ISSUED', '已出单'],
      ['IN_FORCE', '保障中'],
      ['EXPIRED', '已到期'],
    ],
  },
  {
    name: 'policy_status',
    description: '保单状态',
    entries: [
      ['ISSUED', '未生效'],
      ['IN_FORCE', '有效'],
      ['EXPIRED', '已到期'],
      ['CANCELLED', '已退保'],
    ],
  },
  {
    name: 'coinsurer',
    description: '共保/联保保险公司',
    entries: [
      ['PICC', '中国人民财产保险股份有限公司'],
      ['PAIC', '中国平安财产保险股份有限公司'],
      ['CPIC', '中国太平洋财产保险股份有限公司'],
      ['CLPC', '中国人寿财产保险股份有限公司'],
      ['CCIC', '中国大地财产保险股份有限公司'],
      ['CICP', '中华联合财产保险股份有限公司'],
      ['SSAI', '阳光财产保险股份有限公司'],
      ['TPIC', '太平财产保险有限公司'],
      ['HTPC', '华泰财产保险有限公司'],
      ['TAIC', '天安财产保险股份有限公司'],
      ['YAIC', '永安财产保险股份有限公司'],
      ['HAIC', '华安财产保险股份有限公司'],
      ['YDTH', '英大泰和财产保险股份有限公司'],
      ['DHIC', '鼎和财产保险股份有限公司'],
      ['GRPC', '国任财产保险股份有限公司'],
      ['ZKIC', '紫金财产保险股份有限公司'],
      ['DJIC', '大家财产保险有限责任公司'],
      ['ZAIC', '众安在线财产保险股份有限公司'],
    ],
  },
  {
    name: 'document_type',
    description: '影像资料类型',
    entries: [
      ['BUSINESS_LICENSE', '营业执照'],
      ['APPLICATION_FORM', '投保单'],
      ['SIGNED_APPLICATION', '签章投保单'],
      ['INSURED_LIST', '被保险人清单'],
      ['SAFETY_PERMIT', '安全生产许可证'],
      ['LEGAL_REP_ID', '法定代表人身份证'],
      ['AUTHORIZATION', '授权委托书'],
      ['CONSTRUCTION_CONTRACT', '施工合同'],
      ['BID_NOTICE', '中标通知书'],
      ['PAYMENT_VOUCHER', '缴费凭证'],
      ['SERVICE_RECORD', '事故预防服务记录'],
      ['OTHER', '其他'],
    ],
  },
  {
    name: 'policyholder_type',
    description: '投保人类型',
    entries: [
      ['1', '企业'],
      ['2', '个人'],
    ],
  },
  {
    name: 'user_channel',
    description: '用户渠道',
    entries: [
      ['staff', '内部员工'],
      ['agent', '代理人'],
      ['enterprise', '投保企业'],
      ['service', '风控服务机构'],
    ],
  },
  {
    name: 'user_status',
    description: '用户状态',
    entries: [
      ['true', '启用'],
      ['false', '停用'],
    ],
  },
  {
    name: 'dept_status',
    description: '部门状态',
    entries: [
      ['true', '启用'],
      ['false', '停用'],
    ],
  },
  {
    name: 'job_status',
    description: '岗位状态',
    entries: [
      ['true', '启用'],
      ['false', '停用'],
    ],
  },
  {
    name: 'business_source',
    description: '业务来源（保单补录）',
    entries: BUSINESS_SOURCES.map(([value, label]): [string, string] => [value, label]),
  },
  {
    name: 'data_scope',
    description: '角色数据权限',
    entries: [
      ['all', '全部'],
      ['department', '本部门及下级部门'],
      ['custom', '自定义部门'],
      ['self', '仅本人'],
    ],
  },
];

export function seedDictList(): SeedDict[] {
  return [...industryDicts(), ...regionDicts(), ...FIXED];
}

/**
 * Writes the seed dictionaries when the dict table is empty (first start). An advisory lock keeps two instances
 * starting together from both seeding. Answers true when it seeded.
 */
export async function seedDictionaries(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72177002)`);
    const [existing] = await tx.select({ n: count() }).from(dicts);
    const fresh = (existing?.n ?? 0) === 0;
    const list = seedDictList();
    // An older installation gets the dictionaries this release introduces; one an administrator deleted
    // after it was seeded stays deleted.
    const applied = fresh ? new Set<string>() : await appliedSeedKeys(tx, 'dicts');
    const present = new Set((await tx.select({ name: dicts.name }).from(dicts)).map((d) => d.name));
    let added = 0;
    for (const d of list) {
      if (present.has(d.name) || applied?.has(d.name)) continue;
      const [row] = await tx
        .insert(dicts)
        .values({ name: d.name, description: d.description })
        .returning({ id: dicts.id });
      await tx
        .insert(dictDetails)
        .values(
          d.entries.map(([value, label], i) => ({ dictId: row!.id, value, label, sort: (i + 1) * 10 })),
        );
      added++;
    }
    await recordSeedKeys(
      tx,
      'dicts',
      list.map((d) => d.name),
    );
    return added > 0;
  });
}

// Dictionary codes business records refer to: regions (any dictionary named region_*, GB/T 2260 codes) and
// industries (industry_section / industry_division, GB/T 4754). Checks for forms and label lookups for lists.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { fieldError } from '../../lib/errors.ts';

/** A scalar subquery: the label of a region code (null when no region dictionary has it). */
export const regionLabel = (column: AnyColumn | SQL): SQL<string | null> =>
  sql<string | null>`(select dd.label from dict_detail dd join dict d on d.id = dd.dict_id
    where d.name like 'region\\_%' and dd.value = ${column} order by d.id limit 1)`;

/** A scalar subquery: the label of a code in the named dictionary. */
export const dictLabel = (dictName: string, column: AnyColumn | SQL): SQL<string | null> =>
  sql<string | null>`(select dd.label from dict_detail dd join dict d on d.id = dd.dict_id
    where d.name = ${dictName} and dd.value = ${column} limit 1)`;

/** 400 at the field unless each given code is in its dictionary. */
export async function checkDictCodes(
  db: Pick<Db, 'execute'>,
  codes: { region?: string; industrySection?: string; industryDivision?: string },
  labels: { region?: string } = {},
): Promise<void> {
  // [dictionary kind, code, request field, label]
  const wanted: [string, string, string, string][] = [];
  if (codes.region !== undefined)
    wanted.push(['region', codes.region, 'region', labels.region ?? '所在地区']);
  if (codes.industrySection !== undefined)
    wanted.push(['industry_section', codes.industrySection, 'industrySection', '行业门类']);
  if (codes.industryDivision !== undefined)
    wanted.push(['industry_division', codes.industryDivision, 'industryDivision', '行业大类']);
  if (wanted.length === 0) return;
  const res = await db.execute<{ kind: string }>(sql`
    select case when d.name like 'region\\_%' then 'region' else d.name end as kind
    from dict_detail dd join dict d on d.id = dd.dict_id
    where (d.name like 'region\\_%' and dd.value = ${codes.region ?? null})
       or (d.name = 'industry_section' and dd.value = ${codes.industrySection ?? null})
       or (d.name = 'industry_division' and dd.value = ${codes.industryDivision ?? null})`);
  const found = new Set(res.rows.map((r) => r.kind));
  for (const [kind, value, field, label] of wanted) {
    if (!found.has(kind)) throw fieldError(field, `字典中没有代码 ${value}`, label);
  }
}

// The stored status of policies follows their period: a pass (the `policy-expire` job, every hour and on start)
// moves 未生效 (ISSUED) policies whose start has come to 有效 (IN_FORCE), and 未生效 / 有效 policies whose end
// has passed to 已到期 (EXPIRED). Reads never wait for it: `policyStatusOn` derives the same status from the
// period, so the list filter, the pages and the stored column agree. A cancelled policy (已退保) is left alone.
// Each move is one audit entry by the system (no actor).
import { shanghaiToday } from '@piibs/shared/application-status';
import { and, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { policies } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';

/** Brings the stored status of every policy in line with its period as of `today`; answers how many moved. */
export async function settlePolicyStatuses(db: Db, today: string = shanghaiToday()): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(policies)
      .set({ status: 'EXPIRED', updatedAt: sql`now()` })
      .where(and(inArray(policies.status, ['ISSUED', 'IN_FORCE']), lt(policies.endDate, today)))
      .returning({ id: policies.id, number: policies.number });
    const started = await tx
      .update(policies)
      .set({ status: 'IN_FORCE', updatedAt: sql`now()` })
      .where(and(inArray(policies.status, ['ISSUED']), lte(policies.startDate, today)))
      .returning({ id: policies.id, number: policies.number });
    for (const [to, rows] of [
      ['EXPIRED', expired],
      ['IN_FORCE', started],
    ] as const)
      for (const p of rows)
        await writeAudit(tx, {
          action: to === 'EXPIRED' ? 'expire' : 'start',
          entity: 'policy',
          entityId: p.id,
          detail: { number: p.number, after: { status: to }, on: today },
        });
    return expired.length + started.length;
  });
}

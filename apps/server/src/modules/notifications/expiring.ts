// Policies about to end (the daily pg-boss job 'policy-expiring', jobs/boss.ts): the applicant's users of every
// policy whose cover ends within EXPIRING_DAYS are told once (event key policy:<id>:expiring:30), unless the
// policy is being renewed already (a live renewal application).
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { NOTIFICATION_TEXTS } from '@piibs/shared/notification';
import { and, asc, between, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { policies } from '../../db/schema.ts';
import { applicantUsers } from './events.ts';
import { notify } from './service.ts';

export const EXPIRING_DAYS = 30;

/** One pass; answers how many notifications it stored (0 when every one was sent before). */
export async function notifyExpiringPolicies(db: Db, today: string = shanghaiToday()): Promise<number> {
  const due = await db
    .select({
      id: policies.id,
      number: policies.number,
      applicationId: policies.applicationId,
      holderName: policies.holderName,
      endDate: policies.endDate,
    })
    .from(policies)
    .where(
      and(
        between(policies.endDate, today, addDays(today, EXPIRING_DAYS)),
        // Named in full: drizzle leaves the columns of a one-table select unqualified.
        sql`not exists (select 1 from application r where r.renewal_of_policy_id = "policy"."id"
          and r.status not in ('CANCELLED', 'DECLINED'))`,
      ),
    )
    .orderBy(asc(policies.endDate), asc(policies.id));
  let stored = 0;
  for (const p of due) {
    const days = Math.round((Date.parse(p.endDate) - Date.parse(today)) / 86_400_000);
    stored += (
      await db.transaction(async (tx) =>
        notify(tx, {
          userIds: await applicantUsers(tx, p.applicationId),
          kind: 'policy.expiring',
          ...NOTIFICATION_TEXTS.policyExpiring({ ...p, days }),
          link: `/piibs/projectManage/policyInsuranceView/${p.id}`,
          eventKey: `policy:${p.id}:expiring:${EXPIRING_DAYS}`,
        }),
      )
    ).length;
  }
  return stored;
}

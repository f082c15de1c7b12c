// Who may review a task: the users the task queue would show it to. Used to tell them a record went to review
// (notifications) and to offer and check whom a task is assigned to (tasks).
import { ROLE_CODES } from '@piibs/shared/auth';
import { TASK_KIND_PERMISSIONS, type TaskKind } from '@piibs/shared/review';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { applications, customers, secondaryOrders } from '../../db/schema.ts';
import { applicationsVisibleTo } from '../applications/access.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { customersVisibleTo, customerViewerOf } from '../customers/access.ts';
import { declarationsVisibleTo, reviewerProjectViewer } from '../project-orders/access.ts';

export interface TaskReviewer {
  id: number;
  username: string;
  nickName: string;
}

/** Whether the record under review is one the user may see (the task queue's own visibility rules). */
async function sees(db: Db | Tx, kind: TaskKind, subjectId: number, user: RequestUser): Promise<boolean> {
  const asDb = db as Db;
  const viewer = await customerViewerOf(asDb, user);
  let table: typeof customers | typeof applications | typeof secondaryOrders;
  let visible: SQL | undefined;
  if (kind === 'customer') [table, visible] = [customers, customersVisibleTo(asDb, viewer)];
  else if (kind === 'application') [table, visible] = [applications, applicationsVisibleTo(asDb, viewer)];
  else [table, visible] = [secondaryOrders, declarationsVisibleTo(asDb, reviewerProjectViewer(viewer))];
  if (!visible) return true;
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(table)
    .where(and(eq(table.id, subjectId), visible));
  return Boolean(row);
}

/**
 * The reviewers of a task: enabled users (never its submitter) holding the kind's review permission (the admin
 * role holds every one) who see the record within their data scope, by name.
 */
export async function taskReviewers(
  db: Db | Tx,
  task: { kind: TaskKind; subjectId: number; submittedBy: number | null },
): Promise<TaskReviewer[]> {
  const res = await db.execute<{
    id: number | string;
    username: string;
    nick_name: string;
    channel: string;
    roles: string[];
  }>(sql`
    SELECT u.id, u.username, u.nick_name, u.channel,
      array(SELECT r.code FROM user_role ur JOIN role r ON r.id = ur.role_id WHERE ur.user_id = u.id) AS roles
    FROM app_user u
    WHERE u.enabled AND u.id IS DISTINCT FROM ${task.submittedBy} AND EXISTS (
      SELECT 1 FROM user_role ur JOIN role r ON r.id = ur.role_id
      WHERE ur.user_id = u.id AND (r.code = ${ROLE_CODES.admin} OR EXISTS (
        SELECT 1 FROM role_menu rm JOIN menu m ON m.id = rm.menu_id
        WHERE rm.role_id = r.id AND m.permission = ${TASK_KIND_PERMISSIONS[task.kind]})))
    ORDER BY coalesce(nullif(u.nick_name, ''), u.username), u.id`);
  const out: TaskReviewer[] = [];
  for (const r of res.rows) {
    const user: RequestUser = {
      id: Number(r.id),
      username: r.username,
      nickName: r.nick_name,
      roles: r.roles,
      channel: r.channel,
      scope: 'full',
      method: 'password',
      sessionId: '',
    };
    if (await sees(db, task.kind, task.subjectId, user))
      out.push({ id: user.id, username: r.username, nickName: r.nick_name });
  }
  return out;
}

/** What a user no longer there is called where a name is due. */
export const GONE_USER = '（已删除的用户）';

/** A user's display name: the 姓名, else the username; GONE_USER when there is no such user (never the id). */
export async function userName(db: Pick<Db, 'execute'>, userId: number): Promise<string> {
  const res = await db.execute<{ name: string }>(
    sql`SELECT coalesce(nullif(nick_name, ''), username) AS name FROM app_user WHERE id = ${userId}`,
  );
  return res.rows[0]?.name ?? GONE_USER;
}

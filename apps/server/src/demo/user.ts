// The demo seeds act through the real services, as a signed-in demo account would.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { roles, userRoles, users } from '../db/schema.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';

/** A demo account as the services see a signed-in caller (full scope, password sign-in), or null if missing. */
export async function demoUser(db: Db, username: string): Promise<RequestUser | null> {
  const [u] = await db.select().from(users).where(eq(users.username, username));
  if (!u) return null;
  const codes = (
    await db
      .select({ code: roles.code })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, u.id))
  ).map((r) => r.code);
  return {
    id: u.id,
    username: u.username,
    nickName: u.nickName ?? u.username,
    roles: codes,
    channel: u.channel,
    scope: 'full',
    method: 'password',
    sessionId: 'demo-seed',
  } as RequestUser;
}

// Demo data (PIIBS_DEMO=1): the organisation and one account per journey, all with the password Demo@2026.
import { ROLE_CODES, usccCheckChar } from '@piibs/shared';
import { initialise, isInitialized, type NewUser } from '../modules/init/service.ts';
import type { Db } from './client.ts';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_ORGANISATION = '示例财产保险股份有限公司';

const usccBody = '91321100MA1XXXXXX';
/** The demo policyholder enterprise (Zhenjiang, 321100); its code passes the GB 32100 check. */
export const DEMO_ENTERPRISE = Object.freeze({
  uscc: `${usccBody}${usccCheckChar(usccBody)}`,
  name: '镇江示例安全科技有限公司',
});

export const DEMO_USERS: readonly NewUser[] = Object.freeze([
  {
    username: 'underwriter',
    nickName: '核保员',
    password: DEMO_PASSWORD,
    channel: 'staff',
    roles: [ROLE_CODES.underwriter],
  },
  {
    username: 'agent',
    nickName: '代理人',
    password: DEMO_PASSWORD,
    channel: 'agent',
    roles: [ROLE_CODES.agent],
  },
  {
    username: 'enterprise',
    nickName: DEMO_ENTERPRISE.name,
    password: DEMO_PASSWORD,
    channel: 'enterprise',
    roles: [ROLE_CODES.enterprise],
    uscc: DEMO_ENTERPRISE.uscc,
  },
  {
    username: 'service',
    nickName: '风控服务机构',
    password: DEMO_PASSWORD,
    channel: 'service',
    roles: [ROLE_CODES.service],
  },
]);

/** Initialises the system with the demo organisation and accounts unless it is initialised already. */
export async function seedDemo(db: Db): Promise<boolean> {
  if (await isInitialized(db)) return false;
  try {
    await initialise(
      db,
      {
        organisationName: DEMO_ORGANISATION,
        username: 'admin',
        password: DEMO_PASSWORD,
        nickName: '系统管理员',
      },
      { extraUsers: [...DEMO_USERS] },
    );
    return true;
  } catch (err) {
    // Another instance seeded it first.
    if ((err as { status?: number }).status === 409) return false;
    throw err;
  }
}

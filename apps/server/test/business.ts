// Helpers for the business tests (products, customers, review): a system with the seed dictionaries and
// products, one account per role, and small factories for valid records.
import { usccCheckChar } from '@piibs/shared';
import type { CustomerCreateForm } from '@piibs/shared/customer';
import { onStart } from '../src/startup.ts';
import { client } from './admin.ts';
import { ADMIN, createUser, initSystem, tokenFor } from './auth.ts';
import { createTestApp, type TestContext } from './helpers.ts';

let serial = 0;

/** A fresh, valid GB 32100 code (Zhenjiang prefix, a serial in the body, the check character computed). */
export function newUscc(): string {
  serial++;
  const body = `91321100MA${String(serial).padStart(3, '0')}${'ABCDEFGHJKLMNPQRTUWXY'[serial % 21]}${(process.pid % 1000).toString().padStart(3, '0')}`;
  return `${body}${usccCheckChar(body)}`;
}

/** A valid customer form (override what the test is about). */
export function customerForm(over: Partial<CustomerCreateForm> = {}): CustomerCreateForm & { uscc: string } {
  return {
    uscc: typeof over.uscc === 'string' ? over.uscc : newUscc(),
    name: `镇江测试企业${serial}有限公司`,
    industrySection: 'C',
    industryDivision: '34',
    region: '321102',
    address: '江苏省镇江市京口区测试路 1 号',
    legalRepresentative: '张三',
    contactName: '李四',
    phone: '13812345678',
    headcount: 50,
    ...over,
  } as CustomerCreateForm & { uscc: string };
}

export type Client = ReturnType<typeof client>;

export interface World {
  t: TestContext;
  admin: Client;
  underwriter: Client;
  agent: Client;
  agent2: Client;
  ent: Client;
  ent2: Client;
  /** Signed in, no role. */
  nobody: Client;
  /** The two enterprise accounts' codes. */
  entUscc: string;
  ent2Uscc: string;
  ids: Record<'underwriter' | 'agent' | 'agent2' | 'ent' | 'ent2', number>;
}

/** A migrated database, initialised, with the seed dictionaries and products, and one account per role. */
export async function createWorld(): Promise<World> {
  const t = await createTestApp();
  await initSystem(t);
  await onStart({ config: t.config, database: t.database, log: () => {} });
  const entUscc = newUscc();
  const ent2Uscc = newUscc();
  const ids = {
    underwriter: await createUser(t, { username: 'uw', roles: ['underwriter'] }),
    agent: await createUser(t, { username: 'ag', roles: ['agent'], channel: 'agent' }),
    agent2: await createUser(t, { username: 'ag2', roles: ['agent'], channel: 'agent' }),
    ent: await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise', uscc: entUscc }),
    ent2: await createUser(t, { username: 'ent2', roles: ['17'], channel: 'enterprise', uscc: ent2Uscc }),
  };
  await createUser(t, { username: 'nobody', roles: [] });
  const as = async (name: string) => client(t, await tokenFor(t, name));
  return {
    t,
    admin: client(t, await tokenFor(t, ADMIN.username, ADMIN.password)),
    underwriter: await as('uw'),
    agent: await as('ag'),
    agent2: await as('ag2'),
    ent: await as('ent'),
    ent2: await as('ent2'),
    nobody: await as('nobody'),
    entUscc,
    ent2Uscc,
    ids,
  };
}

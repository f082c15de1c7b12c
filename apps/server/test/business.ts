// Helpers for the business tests (products, customers, review): a system with the seed dictionaries and
// products, one account per role, and small factories for valid records.
import { usccCheckChar } from '@piibs/shared';
import type { CustomerCreateForm } from '@piibs/shared/customer';
import { type MaterialNeeds, missingDocTypes } from '@piibs/shared/material';
import type { MaterialStage } from '@piibs/shared/product';
import { inArray } from 'drizzle-orm';
import type { Config } from '../src/config.ts';
import { users } from '../src/db/schema.ts';
import { client } from './admin.ts';
import { ADMIN, tokenFor } from './auth.ts';
import { WORLD_ACCOUNTS, WORLD_USCC } from './databases.ts';
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

/**
 * A migrated database, initialised, with the seed dictionaries and products, and one account per role (the world
 * template of databases.ts, copied), everyone signed in.
 */
export async function createWorld(overrides: Partial<Config> = {}): Promise<World> {
  const t = await createTestApp(overrides, undefined, { from: 'world' });
  const accounts = await t.database.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(
      inArray(
        users.username,
        Object.values(WORLD_ACCOUNTS).map((a) => a.username),
      ),
    );
  const idOf = (key: keyof typeof WORLD_ACCOUNTS) =>
    accounts.find((a) => a.username === WORLD_ACCOUNTS[key].username)!.id;
  const as = async (key: keyof typeof WORLD_ACCOUNTS) =>
    client(t, await tokenFor(t, WORLD_ACCOUNTS[key].username));
  return {
    t,
    admin: client(t, await tokenFor(t, ADMIN.username, ADMIN.password)),
    underwriter: await as('underwriter'),
    agent: await as('agent'),
    agent2: await as('agent2'),
    ent: await as('ent'),
    ent2: await as('ent2'),
    nobody: await as('nobody'),
    entUscc: WORLD_USCC.ent,
    ent2Uscc: WORLD_USCC.ent2,
    ids: {
      underwriter: idOf('underwriter'),
      agent: idOf('agent'),
      agent2: idOf('agent2'),
      ent: idOf('ent'),
      ent2: idOf('ent2'),
    },
  };
}

/**
 * Uploads, as `who` (the application's owner or agent, while they may change its materials), a small PDF for
 * every document type the application still needs to pass `stage` — by default everything up to approval, so a
 * test that submits and approves carries what the products require, as a user would have uploaded it.
 */
export async function attachMaterials(
  who: Client,
  applicationId: number,
  stage: MaterialStage = 'APPROVE',
): Promise<string[]> {
  const res = await who.get(`/api/applications/${applicationId}`);
  if (res.statusCode !== 200) throw new Error(res.body);
  const a = res.json() as MaterialNeeds & { customerDocTypes: string[] };
  const files = await who.get(`/api/materials?businessType=application&businessId=${applicationId}`);
  if (files.statusCode !== 200) throw new Error(files.body);
  const present = [
    ...a.customerDocTypes,
    ...(files.json() as { content: { docType: string }[] }).content.map((m) => m.docType),
  ];
  const missing = missingDocTypes(a, stage, present);
  for (const docType of missing) {
    const up = await who.upload({ businessType: 'application', businessId: applicationId, docType });
    if (up.statusCode !== 200) throw new Error(up.body);
  }
  return missing;
}

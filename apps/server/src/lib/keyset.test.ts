import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { sequenceVersion } from './keyset.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('a data version (a sequence a statement trigger advances)', () => {
  it('moves on the first change too: a new sequence reads 1 before and after its first nextval', async () => {
    const db = t.database.db;
    await db.execute(sql`create sequence keyset_test_version_seq`);
    const versions = [await sequenceVersion(db, 'keyset_test_version_seq')];
    for (let i = 0; i < 2; i++) {
      await db.execute(sql`select nextval('keyset_test_version_seq')`);
      versions.push(await sequenceVersion(db, 'keyset_test_version_seq'));
    }
    expect(versions).toEqual(['0', '1', '2']);
  });
});

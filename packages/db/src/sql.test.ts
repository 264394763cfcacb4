// uuidArray: a batch's ids as one parameter that PostgreSQL counts and probes an index with;
// pickColumns: some of a table's columns under their own names; nowOr: the time a write is stamped with.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { tickets } from './schema.ts';
import { nowOr, pickColumns, uuidArray } from './sql.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const A = '0b7c0e4e-5f3a-4c1e-9d2a-7e6f5a4b3c21';
const B = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

const matching = async (ids: (string | null | undefined)[]) => {
  const { rows } = (await database.db.execute(
    sql`select id::text as id from (values (${A}::uuid), (${B}::uuid), (gen_random_uuid())) as t(id) where id = any(${uuidArray(ids)}) order by id`,
  )) as unknown as { rows: { id: string }[] };
  return rows.map((r) => r.id);
};

it('finds the rows of the ids given, once each', async () => {
  expect(await matching([B, A, A])).toEqual([A, B].sort());
});

it('leaves out what is not a uuid (a malformed value in a batch fails nothing) and matches nothing for none', async () => {
  expect(await matching([A, undefined, null, 'not-a-uuid', '{', `${B},x`])).toEqual([A]);
  expect(await matching([])).toEqual([]);
});

it('picks the named columns of a table under their own names, in the order named', () => {
  const picked = pickColumns(tickets, 'orderId', 'barcode');
  expect(Object.keys(picked)).toEqual(['orderId', 'barcode']);
  expect(picked.orderId).toBe(tickets.orderId);
  expect(picked.barcode).toBe(tickets.barcode);
});

it('stamps a write with the past time given, or with the transaction’s now()', async () => {
  const stamp = async (at?: Date) => {
    const { rows } = (await database.db.execute(sql`select ${nowOr(at)} = now() as now, ${nowOr(at)} as at`)) as unknown as {
      rows: { now: boolean; at: string | Date }[];
    };
    return { now: rows[0]!.now, at: new Date(rows[0]!.at).toISOString() };
  };
  expect(await stamp(new Date('2026-08-24T17:05:09.250Z'))).toEqual({ now: false, at: '2026-08-24T17:05:09.250Z' });
  expect((await stamp()).now).toBe(true);
});

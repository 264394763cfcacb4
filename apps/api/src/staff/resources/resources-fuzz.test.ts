// Fuzzed bodies and queries against every tab's routes: never a 5xx, and nothing written
// (row or audit entry) on a 4xx.
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@boardwalk/contract/staff-navigation';
import { sessions } from '@boardwalk/contract/staff-team-tabs';
import type { FieldDeclaration, ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import * as schema from '@boardwalk/db/schema';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let admin: StaffLogin;
/** Per tab, the row the PUTs act on. */
const targets = new Map<string, string>();

const valid: Record<FieldDeclaration['type'], unknown> = {
  text: 'Fuzz',
  textarea: 'Fuzz\ntext',
  color: '#abcdef',
  number: 5,
  date: '2030-01-01',
  datetime: '2030-01-01T00:00:00Z',
  checkbox: true,
  select: 'Fuzz',
  password: 'a fuzzing password',
};
const validBody = (tab: ResourceDeclaration) =>
  Object.fromEntries(
    tab.fields
      .filter((f) => !f.readOnly && !f.notOnCreate)
      .map((f, i) => {
        const unique = crypto.randomUUID().slice(0, 8);
        if (f.format === 'email') return [f.name, `fuzz-${unique}@example.com`];
        // Each time a day after the field before it: a later field is a later time (valid from and
        // to, opens and closes).
        if (f.type === 'datetime') return [f.name, new Date(Date.UTC(2030, 0, 1 + i)).toISOString()];
        if (f.choices) return [f.name, f.choices[0]!.value];
        // Unique text, so a valid body never collides with a unique column.
        return [f.name, f.type === 'text' ? `F${unique}` : valid[f.type]];
      }),
  );

async function snapshot(tab: ResourceDeclaration) {
  const table = (schema as unknown as Record<string, typeof schema.testPasses>)[tab.table]!;
  const [rows, audit] = await Promise.all([
    t.database.db.select().from(table),
    t.database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(schema.auditLog),
  ]);
  return JSON.stringify({ rows, audit });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, { accessLevel: 1000 });
  await t.database.db
    .insert(schema.passCustomizations)
    .values({ name: 'Fuzz', backgroundColor: '000000', color: 'ffffff', instructions: 'x' });
  // The valid select value names a loyalty tier too (with a threshold no valid body uses).
  await t.database.db.insert(schema.loyaltyTiers).values({ name: 'Fuzz', pointsToReach: 1_000_000 });
  for (const tab of resources) {
    if (!tab.operations.update) continue;
    if (tab === sessions) {
      targets.set(tab.key, (await loginAs(t.app, { accessLevel: 1 })).sessionGuid);
      continue;
    }
    const res = await t.app.inject({ method: 'POST', url: tab.api, headers: admin.headers, payload: validBody(tab) });
    expect(res.statusCode, res.body).toBe(201);
    targets.set(tab.key, res.json<Record<string, string>>()[tab.idField]!);
  }
});
afterAll(() => t.close());

const anything = fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.constant(''), fc.constant('   '), fc.integer(), fc.double());

/** Valid bodies with one field replaced by anything, random objects over the field names, and random JSON values. */
const bodies = (tab: ResourceDeclaration) => {
  const keys = [...tab.fields.map((f) => f.name), tab.idField, '__proto__', 'constructor', 'extra'];
  return fc.oneof(
    fc.record({ key: fc.constantFrom(...keys), value: anything }).map(({ key, value }) => ({ ...validBody(tab), [key]: value })),
    fc.dictionary(fc.constantFrom(...keys), anything),
    fc.jsonValue(),
  );
};

const writes = resources.flatMap((tab) => [
  ...(tab.operations.create ? [{ tab, method: 'POST' as const }] : []),
  ...(tab.operations.update ? [{ tab, method: 'PUT' as const }] : []),
]);

describe.each(writes.map((w) => ({ ...w, name: `${w.method} ${w.tab.title}` })))('fuzzing $name', ({ tab, method }) => {
  it('never answers 5xx and writes nothing on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodies(tab), async (body) => {
        const before = await snapshot(tab);
        const url = method === 'POST' ? tab.api : `${tab.api}${targets.get(tab.key)!}`;
        const res = await t.app.inject({
          method,
          url,
          headers: { ...admin.headers, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.json().message).toEqual(expect.any(String));
          expect(await snapshot(tab)).toBe(before);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe.each(resources.map((tab) => ({ tab, name: tab.title })))('fuzzing the list query of $name', ({ tab }) => {
  it('never answers 5xx', async () => {
    const keys = ['page', 'pageSize', 'sort', 'direction', 'search', 'x'];
    const value = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(...tab.fields.map((f) => f.name), 'asc', 'desc', '0', '-1', '1e9', '99999999999'),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), value), async (query) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `${tab.api}?${new URLSearchParams(query).toString()}`,
          headers: admin.headers,
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

it('sorts every tab by each of its readable fields but the counted ones, both ways, and searches it', async () => {
  for (const tab of resources) {
    for (const f of tab.fields.filter((x) => !x.writeOnly && !x.computed)) {
      for (const direction of ['asc', 'desc']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${tab.api}?sort=${f.name}&direction=${direction}&search=a`,
          headers: admin.headers,
        });
        expect(res.statusCode, `${tab.title} ${f.name}: ${res.body}`).toBe(200);
      }
    }
  }
});

it('answers 4xx to bodies that are not JSON objects, and to ids that are not GUIDs', async () => {
  const tab = resources[0]!;
  for (const payload of ['', 'null', '[]', '"x"', '{"a":', '\u0000']) {
    const res = await t.app.inject({
      method: 'POST',
      url: tab.api,
      payload,
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  }
  for (const id of ['x', "1' or '1'='1", '00000000-0000-0000-0000-00000000000g']) {
    expect((await t.app.inject({ method: 'DELETE', url: `${tab.api}${encodeURIComponent(id)}`, headers: admin.headers })).statusCode).toBe(
      400,
    );
  }
  // The admin is still active and able after all of it.
  const [me] = await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, admin.teamMemberGuid));
  expect(me!.active).toBe(true);
});

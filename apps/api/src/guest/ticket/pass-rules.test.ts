// The pass rules kept in memory are never older than the lookup that applies them: a change
// staff make is applied by the next lookup of every instance on the database, and a rule a
// transaction wrote applies inside it only, never after a rollback.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

const TICKET = { orderId: '87000001', barcode: '8700000000000019' };
const DEFAULT_BACKGROUND = '#112233';

let one: TestApp;
let two: TestApp;
let ip = 0;
beforeAll(async () => {
  const env = { PASS_BACKGROUND_COLOR: '112233', DELIVERY_WORKERS: 'false' };
  one = await createTestApp({ env });
  // A second instance on the same database, with its own copy of the rules.
  two = await createTestApp({ env, database: one.database });
  await putOrder(one.app, TICKET.orderId, anOrder([{ barcode: TICKET.barcode, categoryId: '87', packId: '870' }]));
});
afterAll(async () => {
  await two.close();
  await one.close();
});

async function lookup(t: TestApp) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload: TICKET, remoteAddress: `10.87.0.${++ip % 250}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ backgroundColor: string; skipRegistration: boolean; excluded: string | null; isWristband: boolean }>();
}

describe('pass rules kept in memory', () => {
  it('applies each change at the next lookup of every instance', async () => {
    const db = one.database.db;
    // Both instances read the rules once.
    for (const t of [one, two]) expect((await lookup(t)).backgroundColor).toBe(DEFAULT_BACKGROUND);

    await staff.customization(db, 'Rules Pack', 'aa0000', 'ffffff');
    await staff.mapping(db, { packId: '870', customizationName: 'Rules Pack' });
    for (const t of [two, one]) expect((await lookup(t)).backgroundColor).toBe('#aa0000');

    await db.update(schema.passCustomizations).set({ backgroundColor: '00aa00' }).where(eq(schema.passCustomizations.name, 'Rules Pack'));
    for (const t of [one, two]) expect((await lookup(t)).backgroundColor).toBe('#00aa00');

    await staff.walletException(db, { orderNumber: TICKET.orderId, skipRegistration: true });
    await staff.exclusion(db, { merchPackId: '870', customError: 'Not in wallets.' });
    await staff.wristbandPack(db, { merchItemId: '870' });
    for (const t of [two, one])
      expect(await lookup(t)).toMatchObject({ skipRegistration: true, excluded: 'Not in wallets.', isWristband: true });

    await db.update(schema.passCustomizationCategories).set({ active: false });
    await db.delete(schema.walletExceptions);
    await db.execute(sql`truncate ${schema.walletItemExclusions}`);
    await db.update(schema.wristbandMerchPackIds).set({ validFrom: new Date(Date.now() + 3_600_000) });
    for (const t of [one, two]) {
      expect(await lookup(t)).toMatchObject({
        backgroundColor: DEFAULT_BACKGROUND,
        skipRegistration: false,
        excluded: null,
        isWristband: false,
      });
    }
  });

  it('applies a rule a transaction wrote inside it only, under a savepoint too, and not after it rolls back', async () => {
    const db = one.database.db;
    await staff.customization(db, 'Rolled Back', '0000aa', 'ffffff');
    expect((await lookup(one)).backgroundColor).toBe(DEFAULT_BACKGROUND);
    const rollback = new Error('rollback');
    for (const underSavepoint of [false, true]) {
      const inside = db.transaction(async (tx) => {
        const mapping = { barcode: TICKET.barcode, customizationName: 'Rolled Back' };
        if (underSavepoint) await tx.transaction(async (sp) => void (await sp.insert(schema.passCustomizationCategories).values(mapping)));
        else await tx.insert(schema.passCustomizationCategories).values(mapping);
        const row = await one.app.tickets.findPass(tx, TICKET);
        expect(row?.customization?.backgroundColor).toBe('0000aa');
        throw rollback;
      });
      await expect(inside).rejects.toBe(rollback);
      expect((await lookup(one)).backgroundColor).toBe(DEFAULT_BACKGROUND);
    }
    // The next committed change has the version the rolled-back ones had: it is read, not taken for theirs.
    await staff.mapping(db, { barcode: TICKET.barcode, customizationName: 'Rolled Back' });
    expect((await lookup(one)).backgroundColor).toBe('#0000aa');
    await db.delete(schema.passCustomizationCategories).where(eq(schema.passCustomizationCategories.barcode, TICKET.barcode));
  });

  it('reads the rules at every lookup while the version row is gone', async () => {
    const db = one.database.db;
    expect((await lookup(one)).backgroundColor).toBe(DEFAULT_BACKGROUND);
    await db.delete(schema.passRulesVersion);
    await staff.mapping(db, { barcode: TICKET.barcode, customizationName: 'Rolled Back' });
    expect((await lookup(one)).backgroundColor).toBe('#0000aa');
  });
});

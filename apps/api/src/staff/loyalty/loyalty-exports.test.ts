// The Loyalty tab's exports: Loyalty Export guards them (401, 403); a bad range is a 400 that
// audits nothing; the members file has its columns, balance and tier, and cells a spreadsheet
// would misread are quoted (commas, quotes, line breaks) or neutralised (formulas); the ledger
// file holds the entries of its operating days (from 2:00 AM); each export is audited without
// its rows; and 100,000 members stream with the server's memory flat (measured while reading
// the file over HTTP).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOYALTY_LEDGER_EXPORT_API, LOYALTY_MEMBERS_EXPORT_API } from '@boardwalk/contract/staff-loyalty';
import * as schema from '@boardwalk/db/schema';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { operatingDay } from '../../platform/park-time.ts';

let t: TestApp;
let manager: StaffLogin;
let clerk: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ env: { PARK_TIMEZONE: 'America/Los_Angeles' } });
  manager = await loginAs(t.app, { accessLevel: 100 });
  clerk = await loginAs(t.app, { accessLevel: 10 });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, as: StaffLogin | null = manager) => t.app.inject({ method: 'GET', url, ...(as && { headers: as.headers }) });
const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];
const exportsAudited = async () =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, 'export'), eq(schema.auditLog.resource, 'loyalty')));

async function aMember(firstName: string, lastName: string, email: string, createdAt = new Date('2026-01-05T20:00:00Z')) {
  const [row] = await t.database.db
    .insert(schema.loyaltyAccounts)
    .values({ email, firstName, lastName, createdBy: 'staff', createdAt })
    .returning();
  return row!;
}

describe('the loyalty exports', () => {
  it('need a session (401) and Loyalty Export (403); a bad range is a 400 naming the field, and nothing is audited', async () => {
    expect((await get(LOYALTY_MEMBERS_EXPORT_API, null)).statusCode).toBe(401);
    expect((await get(LOYALTY_MEMBERS_EXPORT_API, clerk)).statusCode).toBe(403);
    expect((await get(`${LOYALTY_LEDGER_EXPORT_API}?from=2026-01-01&to=2026-01-02`, clerk)).statusCode).toBe(403);
    for (const [query, message] of [
      ['?from=2026-01-05&to=2026-01-01', 'From must not be after To'],
      ['?from=yesterday&to=2026-01-01', 'From must be a date (YYYY-MM-DD)'],
      ['?from=2026-01-01', 'To must be a date (YYYY-MM-DD)'],
    ]) {
      const res = await get(`${LOYALTY_LEDGER_EXPORT_API}${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toContain(message);
    }
    expect(await exportsAudited()).toEqual([]);
  });

  it('writes every member with balance and tier, quoting commas, quotes and line breaks and neutralising formulas; audited without rows', async () => {
    await t.database.db.insert(schema.loyaltyTiers).values({ name: 'Gold, "Plus"', pointsToReach: 100 });
    const tricky = await aMember('Ann, "Jr."', 'Lee\nSecond line', 'ann@example.com');
    const formulas = await aMember('=HYPERLINK("http://x")', '+1555', '@evil@example.com');
    const minus = await aMember('-2+3', '\tTabbed', 'minus@example.com');
    await t.database.db
      .update(schema.loyaltyAccounts)
      .set({ phone: '3105550100', zip: '90401' })
      .where(eq(schema.loyaltyAccounts.id, tricky.id));
    const [order] = await t.database.db
      .insert(schema.loyaltyOrders)
      .values({
        accountId: tricky.id,
        sourceType: 'hotel',
        sourceId: 'H1',
        reference: 'H1',
        product: 'Stay',
        amount: 200,
        purchasedAt: new Date(),
      })
      .returning();
    await t.database.db.insert(schema.loyaltyLedger).values([
      { accountId: tricky.id, points: 150, kind: 'earn', reason: 'claimed', causedBy: 'guest', loyaltyOrderId: order!.id },
      { accountId: tricky.id, points: -20, kind: 'adjustment', reason: 'fix', causedBy: 'staff', staffMember: 'boss@example.com' },
      { accountId: minus.id, points: -5, kind: 'adjustment', reason: 'owed', causedBy: 'staff' },
    ]);

    const res = await get(LOYALTY_MEMBERS_EXPORT_API);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="loyalty-members-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.body.split('\n')[0]).toBe('Member Number,Email,First Name,Last Name,Phone,ZIP,Joined,Balance,Tier');
    // Quoted by the CSV rules: the cell with a comma and quotes, and the one with a line break.
    expect(res.body).toContain('"Ann, ""Jr."""');
    expect(res.body).toContain('"Lee\nSecond line"');
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(3);
    const byEmail = new Map(rows.map((r) => [r.Email, r]));
    expect(byEmail.get('ann@example.com')).toEqual({
      'Member Number': tricky.memberNumber,
      Email: 'ann@example.com',
      'First Name': 'Ann, "Jr."',
      'Last Name': 'Lee\nSecond line',
      Phone: '3105550100',
      ZIP: '90401',
      Joined: '2026-01-05T20:00:00.000Z',
      Balance: '130',
      Tier: 'Gold, "Plus"',
    });
    // Cells starting with = + - @ or a tab are prefixed with ' (OWASP); a negative number stays a number.
    expect(byEmail.get("'@evil@example.com")).toMatchObject({
      'First Name': `'=HYPERLINK("http://x")`,
      'Last Name': "'+1555",
      Balance: '0',
      Tier: '',
    });
    expect(byEmail.get('minus@example.com')).toMatchObject({ 'First Name': "'-2+3", 'Last Name': "'\tTabbed", Balance: '-5' });
    expect(formulas.email).toBe('@evil@example.com');

    const [entry] = await exportsAudited();
    expect(entry).toMatchObject({ username: manager.username, recordId: 'members', before: null });
    expect(Object.keys(entry!.after as object)).toEqual(['asOf']);
  });

  it('writes the ledger entries of the operating days asked for (from 2:00 AM park time), oldest first; audited with the range', async () => {
    const member = await aMember('Dee', 'Ledger', 'dee@example.com');
    const entry = (points: number, createdAt: string) => ({
      accountId: member.id,
      points,
      kind: 'adjustment' as const,
      reason: `at ${createdAt}`,
      causedBy: 'staff',
      createdAt: new Date(createdAt),
    });
    await t.database.db.insert(schema.loyaltyLedger).values([
      entry(1, '2026-03-10T08:59:00Z'), // 1:59 AM PDT on March 10: March 9's operating day
      entry(2, '2026-03-10T09:00:00Z'), // 2:00 AM: March 10
      entry(3, '2026-03-11T08:59:00Z'), // 1:59 AM on March 11: still March 10
      entry(4, '2026-03-11T09:00:00Z'), // March 11
    ]);
    const res = await get(`${LOYALTY_LEDGER_EXPORT_API}?from=2026-03-10&to=2026-03-10`);
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\n')[0]).toBe('Entry,Written,Member Number,Kind,Points,Reason,Source Type,Source ID,Caused By,Staff Member');
    const rows = rowsOf(res.body);
    expect(rows.map((r) => r.Points)).toEqual(['2', '3']);
    expect(rows[0]).toMatchObject({ Written: '2026-03-10T09:00:00.000Z', 'Member Number': member.memberNumber, Kind: 'adjustment' });
    const audited = (await exportsAudited()).find((a) => a.recordId === 'ledger');
    expect(audited?.after).toEqual({ from: '2026-03-10', to: '2026-03-10' });
  });

  it('ends a range that runs past today today (to 9999-12-31 answered an empty file), and refuses one that starts after today', async () => {
    const res = await get(`${LOYALTY_LEDGER_EXPORT_API}?from=2026-03-10&to=9999-12-31`);
    expect(res.statusCode, res.body).toBe(200);
    expect(rowsOf(res.body).map((r) => r.Points)).toEqual(expect.arrayContaining(['2', '3', '4']));
    const today = operatingDay(new Date(), t.app.config.parkTimezone);
    expect(res.headers['content-disposition']).toContain(`loyalty-ledger-2026-03-10-to-${today}.csv`);
    const later = await get(`${LOYALTY_LEDGER_EXPORT_API}?from=9999-12-30&to=9999-12-31`);
    expect(later.statusCode).toBe(400);
    expect(later.json()).toMatchObject({ message: `From must not be after today (${today}): no entry is written yet` });
  });
});

describe('100,000 members', () => {
  it('stream with the server memory flat', { timeout: 300_000 }, async () => {
    // Referral codes of their own: 100,000 of the random default (40 bits) collide once in about
    // 220 runs (a run failed so on the unique constraint).
    await t.database.db.execute(sql`
      insert into loyalty_accounts (email, first_name, last_name, created_by, referral_code)
      select 'bulk' || n || '@example.com', 'First ' || n, 'Last, "' || n || '"', 'staff', 'BULK' || n from generate_series(1, 100000) n`);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The live heap: after a full collection (V8's gc, made callable here), so garbage not yet
    // collected does not count; sampled every megabyte of the file.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const liveHeap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = liveHeap();
    let peak = before;
    let bytes = 0;
    let lines = 0;
    let nextSample = 0;
    const response = await fetch(`${address}${LOYALTY_MEMBERS_EXPORT_API}`, { headers: manager.headers });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      bytes += chunk.byteLength;
      lines += decoder.decode(chunk, { stream: true }).split('\n').length - 1;
      if (bytes >= nextSample) {
        peak = Math.max(peak, liveHeap());
        nextSample += 1024 * 1024;
      }
    }
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    const figures = { fileMb: mb(bytes), liveHeapGrowthMb: mb(peak - before) };
    console.log(`members export: 100,000 rows, ${JSON.stringify(figures)}`);
    // The header and 100,000 members (the three of the tests above too).
    expect(lines).toBeGreaterThanOrEqual(100_001);
    // Flat: the live heap never held more than a few pages' worth while the file went out (the
    // 100,000 rows read at once would hold several times the file's size).
    expect(figures.liveHeapGrowthMb).toBeLessThan(figures.fileMb / 2);
  });
});

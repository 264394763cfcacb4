// A table tab's CSV export (GET <api>export, its `<Tab> List` permission): what the list shows
// (its search, filter and sort) over every page, one column per field the list reads (never a
// password), quoted and with formulas neutralised; audited (who, which tab, what it showed),
// never the rows. The client builds its address from the list's parameters.
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportApi } from '@boardwalk/contract/staff-tabs';
import { loyaltyRewards } from '@boardwalk/contract/staff-loyalty-tabs';
import { passCustomizations } from '@boardwalk/contract/staff-pass-tabs';
import { teamMembers } from '@boardwalk/contract/staff-team-tabs';
import * as schema from '@boardwalk/db/schema';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { EXPORT_PAGE_SIZE } from '../../platform/csv-stream.ts';

let t: TestApp;
let admin: StaffLogin;
let lacking: StaffLogin;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, { accessLevel: 1000 });
  lacking = await loginAs(t.app, { accessLevel: 0 });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, as: StaffLogin | null = admin) => t.app.inject({ method: 'GET', url, ...(as && { headers: as.headers }) });
const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

describe('a table tab export', () => {
  it("needs a session (401) and the tab's List permission (403); a bad sort is a 400", async () => {
    expect((await get(exportApi(passCustomizations), null)).statusCode).toBe(401);
    expect((await get(exportApi(passCustomizations), lacking)).statusCode).toBe(403);
    expect((await get(`${exportApi(passCustomizations)}?sort=nope`)).statusCode).toBe(400);
  });

  it('writes every row the list shows, over more than one page, in its search and sort, quoting and neutralising cells; audited without rows', async () => {
    const rows = Array.from({ length: EXPORT_PAGE_SIZE + 5 }, (_, i) => ({
      name: `Export ${String(i).padStart(4, '0')}`,
      backgroundColor: '112233',
      color: 'ffffff',
      instructions: i === 0 ? '=HYPERLINK("http://x"), "quoted"\nline' : 'Show at the gate',
    }));
    await t.database.db
      .insert(schema.passCustomizations)
      .values([...rows, { name: 'Other', backgroundColor: '000000', color: 'ffffff', instructions: 'x' }]);

    const res = await get(`${exportApi(passCustomizations)}?search=export&sort=passCustomizationName&direction=desc`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="pass-customizations.csv"');
    const header = res.body.split('\n')[0]!;
    expect(header.split(',')).toEqual(passCustomizations.fields.map((f) => f.label));
    const exported = rowsOf(res.body);
    expect(exported).toHaveLength(EXPORT_PAGE_SIZE + 5);
    expect(exported[0]!.Name).toBe(`Export ${String(EXPORT_PAGE_SIZE + 4).padStart(4, '0')}`);
    expect(exported.at(-1)).toMatchObject({
      Name: 'Export 0000',
      'Background Color': '112233',
      Instructions: `'=HYPERLINK("http://x"), "quoted"\nline`,
    });
    expect(exported.some((r) => r.Name === 'Other')).toBe(false);

    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, 'export'), eq(schema.auditLog.resource, passCustomizations.key)));
    expect(entry).toMatchObject({ username: admin.username, before: null });
    expect(entry!.after).toEqual({ search: 'export', filter: null, sort: 'passCustomizationName', direction: 'desc' });
  });

  it('never writes a field the list does not read (a password)', async () => {
    const res = await get(exportApi(teamMembers));
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\n')[0]).not.toMatch(/password/i);
    expect(res.body).not.toMatch(/\$argon2/);
    expect(rowsOf(res.body).map((r) => r.Email)).toContain(admin.username);
  });

  it('follows the list’s order over its pages for a sort with nulls and ties (text, numbers, times), both ways', async () => {
    await t.database.executeSql(
      `insert into loyalty_rewards (name, description, points_cost, limit_per_member, valid_to)
       select 'Reward ' || i,
         case when i % 5 = 0 then null when i % 2 = 0 then 'Desc ' || (i % 37) else 'desc ' || (i % 37) end,
         i,
         case when i % 3 = 0 then null else i % 50 + 1 end,
         case when i % 4 = 0 then null else timestamptz '2027-01-01' + (i % 97) * interval '1 microsecond' end
       from generate_series(1, ${2 * EXPORT_PAGE_SIZE + 300}) i`,
      [],
    );
    const listed = async (query: string) => {
      const names: string[] = [];
      for (let page = 1; ; page++) {
        const res = await get(`${loyaltyRewards.api}?pageSize=200&page=${page}&${query}`);
        expect(res.statusCode, res.body).toBe(200);
        const rows = res.json<Record<string, unknown>[]>();
        names.push(...rows.map((row) => String(row.loyaltyRewardName)));
        if (rows.length < 200) return names;
      }
    };
    for (const sort of ['loyaltyRewardDescription', 'loyaltyRewardLimitPerMember', 'loyaltyRewardValidTo']) {
      for (const direction of ['asc', 'desc']) {
        const query = `sort=${sort}&direction=${direction}`;
        const res = await get(`${exportApi(loyaltyRewards)}?${query}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(
          rowsOf(res.body).map((row) => row.Name),
          query,
        ).toEqual(await listed(query));
      }
    }
  });
});

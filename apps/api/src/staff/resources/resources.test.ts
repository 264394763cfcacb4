// The back-office tabs through HTTP: field rules, save rules, audit entries, paging, sort,
// search, the Session tab, the option lists, and what staff configure reaching guests.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, permissions, sessions, teamMembers } from '@boardwalk/contract/staff-team-tabs';
import {
  passCustomizationCategories,
  passCustomizations,
  testPasses,
  walletExceptions,
  walletItemExclusions,
} from '@boardwalk/contract/staff-pass-tabs';
import { wristbandMerchPackIds } from '@boardwalk/contract/staff-wristband-tabs';
import type { ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let admin: StaffLogin;
/** Every log line of the app, at info level. */
const logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
  admin = await loginAs(t.app, { accessLevel: 1000 });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(who: StaffLogin | null, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url, ...(payload !== undefined && { payload: payload as object }), headers: who ? who.headers : {} });
}
const list = (tab: ResourceDeclaration, query = '', who: StaffLogin = admin) => call(who, 'GET', `${tab.api}${query}`);
const create = (tab: ResourceDeclaration, body: unknown, who: StaffLogin = admin) => call(who, 'POST', tab.api, body);
const update = (tab: ResourceDeclaration, id: string, body: unknown, who: StaffLogin = admin) => call(who, 'PUT', `${tab.api}${id}`, body);
const remove = (tab: ResourceDeclaration, id: string, who: StaffLogin = admin) => call(who, 'DELETE', `${tab.api}${id}`);

async function created(tab: ResourceDeclaration, body: Record<string, unknown>) {
  const res = await create(tab, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Record<string, unknown>>();
}

async function auditEntries(resource: string, recordId?: string) {
  const rows = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.resource, resource));
  return rows.filter((r) => recordId === undefined || r.recordId === recordId);
}

const customization = (name: string, extra: Record<string, unknown> = {}) => ({
  passCustomizationName: name,
  passCustomizationBackgroundColor: '#1B4965',
  passCustomizationColor: 'ffffff',
  passCustomizationInstructions: `${name} instructions`,
  ...extra,
});

describe('Pass Customizations', () => {
  it('creates a row: 201 with the row, colours stored without #, and an audit entry', async () => {
    const row = await created(passCustomizations, customization('Gold', { passCustomizationInstructionsEs: 'Instrucciones Gold' }));
    expect(row).toEqual({
      passCustomizationGUID: expect.any(String),
      passCustomizationName: 'Gold',
      passCustomizationBackgroundColor: '1b4965',
      passCustomizationColor: 'ffffff',
      passCustomizationInstructions: 'Gold instructions',
      passCustomizationInstructionsEs: 'Instrucciones Gold',
      passCustomizationGoogleInstructions: null,
      passCustomizationGoogleInstructionsEs: null,
      passCustomizationGoogleURI: null,
      passCustomizationHideBarcode: false,
    });
    const [stored] = await t.database.db.select().from(schema.passCustomizations).where(eq(schema.passCustomizations.name, 'Gold'));
    expect(stored).toMatchObject({
      backgroundColor: '1b4965',
      color: 'ffffff',
      instructionsEs: 'Instrucciones Gold',
      googleInstructionsEs: null,
    });
    const [entry] = await auditEntries('pass-customizations', row.passCustomizationGUID as string);
    expect(entry).toMatchObject({
      action: 'create',
      username: admin.username,
      teamMemberGuid: admin.teamMemberGuid,
      before: null,
      after: row,
    });
  });

  it('refuses a blank required field with 400 naming the field, and writes nothing', async () => {
    const before = await t.database.db.select().from(schema.passCustomizations);
    const res = await create(passCustomizations, customization('Blank', { passCustomizationInstructions: '   ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_FAILED', message: 'passCustomizationInstructions: Instructions is required' });
    expect(await t.database.db.select().from(schema.passCustomizations)).toEqual(before);
  });

  it('refuses a duplicate name with 409', async () => {
    await created(passCustomizations, customization('Twice'));
    const res = await create(passCustomizations, customization('Twice'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Name "Twice" is already in use in Pass Customizations.');
  });

  it('keeps the create-only name: the same value is accepted, another refused', async () => {
    const row = await created(passCustomizations, customization('Silver'));
    const id = row.passCustomizationGUID as string;
    const same = await update(passCustomizations, id, { passCustomizationName: 'Silver', passCustomizationColor: '#000000' });
    expect(same.statusCode).toBe(200);
    expect(same.json().passCustomizationColor).toBe('000000');
    const renamed = await update(passCustomizations, id, { passCustomizationName: 'Bronze' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toBe('Name can only be set when creating.');
    expect((await list(passCustomizations, '?search=Bronze')).json()).toEqual([]);
  });

  it('answers an unchanged PUT with 200 and the row, writing no audit entry', async () => {
    const row = await created(passCustomizations, customization('Still'));
    const id = row.passCustomizationGUID as string;
    const entries = (await auditEntries('pass-customizations', id)).length;
    // The whole row sent back as the modal would, colour with '#', and in upper case.
    const res = await update(passCustomizations, id, { ...row, passCustomizationBackgroundColor: '#1B4965' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(row);
    expect(await auditEntries('pass-customizations', id)).toHaveLength(entries);
  });

  it('updates with before and after in the audit entry; a blank required field changes nothing', async () => {
    const row = await created(passCustomizations, customization('Teal'));
    const id = row.passCustomizationGUID as string;
    const blank = await update(passCustomizations, id, { passCustomizationColor: '', passCustomizationHideBarcode: true });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('passCustomizationColor: Color is required');
    const res = await update(passCustomizations, id, {
      passCustomizationHideBarcode: true,
      passCustomizationGoogleURI: 'https://example.com/x',
    });
    expect(res.statusCode).toBe(200);
    const entries = await auditEntries('pass-customizations', id);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(entries[1]!.before).toMatchObject({ passCustomizationHideBarcode: false, passCustomizationGoogleURI: null });
    expect(entries[1]!.after).toEqual(res.json());
  });

  it('deletes (200 with the row, audit before), and answers 404 for a row that is gone', async () => {
    const row = await created(passCustomizations, customization('Gone'));
    const id = row.passCustomizationGUID as string;
    const res = await remove(passCustomizations, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(row);
    const entries = await auditEntries('pass-customizations', id);
    expect(entries.at(-1)).toMatchObject({ action: 'delete', before: row, after: null });
    expect((await remove(passCustomizations, id)).statusCode).toBe(404);
    expect((await update(passCustomizations, id, { passCustomizationColor: '123456' })).statusCode).toBe(404);
    expect((await remove(passCustomizations, 'not-a-guid')).statusCode).toBe(400);
  });

  it('refuses unknown fields', async () => {
    const res = await create(passCustomizations, customization('Extra', { colour: 'red' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('colour: Unknown field');
  });

  it('refuses a nested object or list where the row is sent back (the id, a read-only field), on create and on update', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = { a: deep };
    const before = await list(passCustomizations);
    for (const res of [
      await create(passCustomizations, customization('Deep', { passCustomizationGUID: deep })),
      await create(passCustomizations, customization('Listed', { passCustomizationGUID: [1] })),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^passCustomizationGUID: must be the value the list shows/);
    }
    expect((await list(passCustomizations)).headers['x-total-count']).toBe(before.headers['x-total-count']);
    const row = await created(passCustomizations, customization('Sent back'));
    const id = row.passCustomizationGUID as string;
    expect((await update(passCustomizations, id, { ...row, passCustomizationGUID: { id } })).statusCode).toBe(400);
    expect((await update(passCustomizations, id, row)).statusCode).toBe(200);
  });
});

describe('Pass Customization Categories', () => {
  it('needs an existing customization (400 naming the field); a mapped customization cannot be deleted (409)', async () => {
    const missing = await create(passCustomizationCategories, {
      passCustomizationTTcategoryID: '12',
      passCustomizationTTcustomizationName: 'Nope',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: 'Customization "Nope" does not exist.',
      fields: [{ path: 'passCustomizationTTcustomizationName' }],
    });

    const target = await created(passCustomizations, customization('Mapped'));
    const mapping = await created(passCustomizationCategories, {
      passCustomizationTTcategoryID: '12',
      passCustomizationTTcustomizationName: 'Mapped',
    });
    expect(mapping).toMatchObject({ passCustomizationTTactive: true, passCustomizationTTpackID: null });
    const res = await remove(passCustomizations, target.passCustomizationGUID as string);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'This Pass Customizations row is still used by Pass Customization Categories: change or delete those first.',
    );
    expect(await auditEntries('pass-customizations', target.passCustomizationGUID as string)).toHaveLength(1);
  });

  it('lists the customization names as options', async () => {
    const res = await call(admin, 'GET', '/api/admin/pass-customizations/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expect.arrayContaining([{ value: 'Gold', label: 'Gold' }]));
  });
});

describe('Wristband Merch Pack IDs and Wallet Item Exclusions', () => {
  it('takes whole numbers in bounds, answering them as numbers; the created time is set by the server', async () => {
    const row = await created(wristbandMerchPackIds, {
      wristbandMerchPackIDsMerchItemID: 340,
      wristbandMerchPackIDsCreated: '1999-01-01T00:00:00Z',
    });
    expect(row).toMatchObject({
      wristbandMerchPackIDsMerchItemID: 340,
      wristbandMerchPackIDsActive: true,
      wristbandMerchPackIDsValidFrom: null,
    });
    expect(Date.now() - Date.parse(row.wristbandMerchPackIDsCreated as string)).toBeLessThan(60_000);
    for (const bad of [-1, 1e12, 2.5, '340']) {
      const res = await create(wristbandMerchPackIds, { wristbandMerchPackIDsMerchItemID: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^wristbandMerchPackIDsMerchItemID: Merch Item ID must be/);
    }
  });

  it('takes datetimes with an offset (answered in UTC) or null', async () => {
    const row = await created(walletItemExclusions, {
      walletItemExclusionMerchItemID: '7777',
      walletItemExclusionValidFrom: '2026-11-21T11:02:09-08:00',
      walletItemExclusionValidTo: null,
    });
    expect(row).toMatchObject({
      walletItemExclusionValidFrom: '2026-11-21T19:02:09.000Z',
      walletItemExclusionValidTo: null,
      walletItemExclusionActive: true,
    });
    const bad = await create(walletItemExclusions, { walletItemExclusionValidFrom: '2026-11-21 11:02' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^walletItemExclusionValidFrom: Valid From must be a date and time in ISO 8601/);
    const id = row.walletItemExclusionsGUID as string;
    const cleared = await update(walletItemExclusions, id, { walletItemExclusionValidFrom: '' });
    expect(cleared.json().walletItemExclusionValidFrom).toBeNull();
  });

  it('refuses an exclusion naming neither a merch item nor a merch pack (400, nothing written), on create and on update', async () => {
    const before = (await list(walletItemExclusions)).headers['x-total-count'];
    const message = 'walletItemExclusionMerchItemID: Merch Item ID or Merch Pack ID is required';
    for (const body of [{}, { walletItemExclusionMerchItemID: ' ', walletItemExclusionCustomError: 'Not in wallets' }]) {
      const res = await create(walletItemExclusions, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_FAILED', message, fields: [{ path: 'walletItemExclusionMerchItemID' }] });
    }
    expect((await list(walletItemExclusions)).headers['x-total-count']).toBe(before);
    const row = await created(walletItemExclusions, { walletItemExclusionMerchPackID: 'PACK-9' });
    const id = row.walletItemExclusionsGUID as string;
    // Moving from the pack to an item is fine; clearing both is not.
    expect(
      (await update(walletItemExclusions, id, { walletItemExclusionMerchItemID: '9', walletItemExclusionMerchPackID: '' })).statusCode,
    ).toBe(200);
    const emptied = await update(walletItemExclusions, id, { walletItemExclusionMerchItemID: '' });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().message).toBe('Merch Item ID or Merch Pack ID is required');
  });
});

describe('Team', () => {
  const member = {
    teamMemberFirstName: 'Rosa',
    teamMemberLastName: 'Diaz',
    teamMemberInternalID: 'E-100',
    teamMemberUsername: 'rosa.diaz@example.com',
    teamMemberPassword: 'a long secret password',
    teamMemberAccessLevel: 10,
  };

  it('hashes the password with argon2id, never answers or audits it, and the member can log in', async () => {
    const row = await created(teamMembers, member);
    expect(row).not.toHaveProperty('teamMemberPassword');
    expect(row).toMatchObject({ teamMemberActive: true, teamMemberAccessLevel: 10 });
    const [stored] = await t.database.db
      .select()
      .from(schema.teamMembers)
      .where(eq(schema.teamMembers.guid, row.teamMemberGUID as string));
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
    const login = await t.app.inject({
      method: 'POST',
      url: '/app/login/',
      remoteAddress: nextIp(),
      payload: { teamMemberUsername: member.teamMemberUsername, teamMemberPassword: member.teamMemberPassword },
    });
    expect(login.statusCode).toBe(201);

    const changed = await update(teamMembers, row.teamMemberGUID as string, { teamMemberPassword: 'another long password' });
    expect(changed.statusCode).toBe(200);
    const [after] = await t.database.db
      .select()
      .from(schema.teamMembers)
      .where(eq(schema.teamMembers.guid, row.teamMemberGUID as string));
    expect(after!.passwordHash).not.toBe(stored!.passwordHash);

    const entries = JSON.stringify(await auditEntries('team', row.teamMemberGUID as string));
    const secrets = [
      member.teamMemberPassword,
      'another long password',
      stored!.passwordHash,
      after!.passwordHash,
      login.json().accessToken as string,
      admin.token,
    ];
    for (const secret of [...secrets, 'argon2']) expect(entries).not.toContain(secret);
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(logLines.join('')).not.toContain(secret);
  });

  it('needs a password of 12 characters when creating, an email username, and refuses setting Active when creating', async () => {
    const { teamMemberPassword: _, ...noPassword } = member;
    expect((await create(teamMembers, { ...noPassword, teamMemberUsername: 'a@example.com' })).json().message).toBe(
      'teamMemberPassword: Change Password is required',
    );
    expect((await create(teamMembers, { ...member, teamMemberUsername: 'b@example.com', teamMemberPassword: 'short' })).statusCode).toBe(
      400,
    );
    expect((await create(teamMembers, { ...member, teamMemberUsername: 'not-an-email' })).json().message).toBe(
      'teamMemberUsername: Email must be an email address',
    );
    expect((await create(teamMembers, { ...member, teamMemberUsername: 'c@example.com', teamMemberActive: true })).json().message).toBe(
      'teamMemberActive: Active cannot be set when creating',
    );
  });

  it('refuses a username already used, whatever its case (409)', async () => {
    const res = await create(teamMembers, { ...member, teamMemberUsername: 'ROSA.DIAZ@example.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email "ROSA.DIAZ@example.com" is already in use in Team.');
  });

  it('keeps members from locking themselves out: no deleting, deactivating or demoting their own account', async () => {
    const self = admin.teamMemberGuid;
    for (const [res, what] of [
      [await remove(teamMembers, self), 'delete'],
      [await update(teamMembers, self, { teamMemberActive: false }), 'deactivate'],
      [await update(teamMembers, self, { teamMemberAccessLevel: 10 }), 'lower the access level of'],
    ] as const) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(`You cannot ${what} your own account; ask another administrator.`);
    }
    const [stored] = await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, self));
    expect(stored).toMatchObject({ active: true, accessLevel: 1000 });
    // Their own name, and another member's level, they may change.
    expect((await update(teamMembers, self, { teamMemberDescription: 'Runs the back office' })).statusCode).toBe(200);
    const other = await created(teamMembers, { ...member, teamMemberUsername: 'lock.test@example.com' });
    expect(
      (await update(teamMembers, other.teamMemberGUID as string, { teamMemberActive: false, teamMemberAccessLevel: 1 })).statusCode,
    ).toBe(200);
  });

  describe('levels: nobody reaches above their own', () => {
    const teamList = { permissions: ['Team List', 'Team Create', 'Team Update', 'Team Delete'] };
    const body = (username: string, level: number) => ({ ...member, teamMemberUsername: username, teamMemberAccessLevel: level });
    const storedLevel = async (guid: string) =>
      (await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, guid)))[0]!.accessLevel;

    it('refuses creating a member above the creator (403, nothing written); their own level is fine', async () => {
      const lead = await loginAs(t.app, { accessLevel: 100, ...teamList });
      const res = await create(teamMembers, body('too.high@example.com', 101), lead);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot grant an access level above your own (100).');
      const rows = await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.username, 'too.high@example.com'));
      expect(rows).toHaveLength(0);
      expect((await create(teamMembers, body('same.level@example.com', 100), lead)).statusCode).toBe(201);
    });

    it("refuses raising oneself above one's own level", async () => {
      const lead = await loginAs(t.app, { accessLevel: 100, ...teamList });
      const res = await update(teamMembers, lead.teamMemberGuid, { teamMemberAccessLevel: 1000 }, lead);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot grant an access level above your own (100).');
      expect(await storedLevel(lead.teamMemberGuid)).toBe(100);
    });

    it("refuses raising another member above the editor; up to the editor's level is fine", async () => {
      const lead = await loginAs(t.app, { accessLevel: 100, ...teamList });
      const other = await created(teamMembers, body('raise.me@example.com', 10));
      const id = other.teamMemberGUID as string;
      expect((await update(teamMembers, id, { teamMemberAccessLevel: 500 }, lead)).statusCode).toBe(403);
      expect(await storedLevel(id)).toBe(10);
      expect((await update(teamMembers, id, { teamMemberAccessLevel: 100 }, lead)).statusCode).toBe(200);
    });

    it('refuses changing, re-passwording or deleting a member above the editor (403, nothing written)', async () => {
      const lead = await loginAs(t.app, { accessLevel: 100, ...teamList });
      const boss = await loginAs(t.app, { accessLevel: 1000 });
      const [hashBefore] = await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, boss.teamMemberGuid));
      const message = 'You cannot change a team member whose access level (1000) is above your own (100).';
      for (const res of [
        await update(teamMembers, boss.teamMemberGuid, { teamMemberPassword: 'taken over password' }, lead),
        await update(teamMembers, boss.teamMemberGuid, { teamMemberAccessLevel: 100 }, lead),
        await update(teamMembers, boss.teamMemberGuid, { teamMemberActive: false }, lead),
        await update(teamMembers, boss.teamMemberGuid, { teamMemberDescription: 'mine now' }, lead),
        await remove(teamMembers, boss.teamMemberGuid, lead),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(message);
      }
      const [after] = await t.database.db.select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, boss.teamMemberGuid));
      expect(after).toEqual(hashBefore);
      expect((await call(boss, 'GET', teamMembers.api)).statusCode).toBe(200);
    });

    it("keeps permissions within the editor's level: none set above it, none changed that is above it", async () => {
      const lead = await loginAs(t.app, {
        accessLevel: 100,
        permissions: ['Permissions List', 'Permissions Create', 'Permissions Update'],
      });
      const high = await created(permissions, { permissionName: `High ${Date.now()}`, permissionMinimumAccessLevel: 1000 });
      const id = high.permissionGUID as string;
      const lowered = await update(permissions, id, { permissionMinimumAccessLevel: 1 }, lead);
      expect(lowered.statusCode).toBe(403);
      expect(lowered.json().message).toBe('You cannot change a permission whose minimum access level (1000) is above your own (100).');
      const own = await created(permissions, { permissionName: `Own ${Date.now()}`, permissionMinimumAccessLevel: 100 });
      const raised = await update(permissions, own.permissionGUID as string, { permissionMinimumAccessLevel: 500 }, lead);
      expect(raised.statusCode).toBe(403);
      expect(raised.json().message).toBe('You cannot set a minimum access level above your own (100).');
      expect((await create(permissions, { permissionName: `New ${Date.now()}`, permissionMinimumAccessLevel: 101 }, lead)).statusCode).toBe(
        403,
      );
      const rows = await t.database.db.select().from(schema.permissions).where(eq(schema.permissions.guid, id));
      expect(rows[0]!.minimumAccessLevel).toBe(1000);
      expect((await update(permissions, own.permissionGUID as string, { permissionMinimumAccessLevel: 50 }, lead)).statusCode).toBe(200);
    });

    it('refuses ending the session of a member above the editor; a member at or below it, fine', async () => {
      const lead = await loginAs(t.app, { accessLevel: 100, permissions: ['Session List', 'Session Update'] });
      const boss = await loginAs(t.app, { accessLevel: 1000 });
      const peer = await loginAs(t.app, { accessLevel: 100 });
      const end = (who: StaffLogin) => update(sessions, who.sessionGuid, { sessionActive: false }, lead);
      const refused = await end(boss);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(
        'You cannot change the session of a team member whose access level (1000) is above your own (100).',
      );
      expect((await call(boss, 'GET', teamMembers.api)).statusCode).toBe(200);
      expect((await end(peer)).statusCode).toBe(200);
    });
  });

  describe("a new password or a deactivation ends the member's sessions", () => {
    const sessionStatus = (who: StaffLogin) => call(who, 'GET', sessions.api).then((r) => r.statusCode);

    it('a password set by another member ends every session of the member', async () => {
      const target = await loginAs(t.app, { accessLevel: 1000 });
      const second = await t.app.inject({
        method: 'POST',
        url: '/app/login/',
        remoteAddress: nextIp(),
        payload: { teamMemberUsername: target.username, teamMemberPassword: target.password },
      });
      const secondHeaders = { authorization: `Bearer ${second.json().accessToken as string}` };
      expect(await sessionStatus(target)).toBe(200);
      expect((await update(teamMembers, target.teamMemberGuid, { teamMemberPassword: 'a brand new password' })).statusCode).toBe(200);
      expect(await sessionStatus(target)).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: sessions.api, headers: secondHeaders })).statusCode).toBe(401);
      // The administrator's own session is untouched.
      expect(await sessionStatus(admin)).toBe(200);
    });

    it('a deactivation ends them; reactivating does not bring them back', async () => {
      const target = await loginAs(t.app, { accessLevel: 1000 });
      expect((await update(teamMembers, target.teamMemberGuid, { teamMemberActive: false })).statusCode).toBe(200);
      expect((await update(teamMembers, target.teamMemberGuid, { teamMemberActive: true })).statusCode).toBe(200);
      expect(await sessionStatus(target)).toBe(401);
    });

    it("changing one's own password ends one's other sessions and keeps the one it was changed from", async () => {
      const me = await loginAs(t.app, { accessLevel: 1000 });
      const other = await t.app.inject({
        method: 'POST',
        url: '/app/login/',
        remoteAddress: nextIp(),
        payload: { teamMemberUsername: me.username, teamMemberPassword: me.password },
      });
      const otherHeaders = { authorization: `Bearer ${other.json().accessToken as string}` };
      expect((await update(teamMembers, me.teamMemberGuid, { teamMemberPassword: 'my own new password' }, me)).statusCode).toBe(200);
      expect(await sessionStatus(me)).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: sessions.api, headers: otherHeaders })).statusCode).toBe(401);
    });

    it('another change (a description) ends nothing', async () => {
      const target = await loginAs(t.app, { accessLevel: 1000 });
      expect((await update(teamMembers, target.teamMemberGuid, { teamMemberDescription: 'Night shift' })).statusCode).toBe(200);
      expect(await sessionStatus(target)).toBe(200);
    });
  });

  it('lists members as "Last, First (level)" options', async () => {
    const res = await call(admin, 'GET', '/api/team-member/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expect.arrayContaining([{ value: expect.any(String), label: 'Diaz, Rosa (10)' }]));
  });
});

describe('Permissions', () => {
  it('refuses a duplicate permission name (409)', async () => {
    const res = await create(permissions, { permissionName: 'Team List', permissionMinimumAccessLevel: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Name "Team List" is already in use in Permissions.');
  });
});

describe('Session', () => {
  it('shows a fingerprint of the token hash, never the token', async () => {
    const someone = await loginAs(t.app, { accessLevel: 1 });
    const res = await list(sessions, '?pageSize=200');
    const row = res.json<Record<string, unknown>[]>().find((r) => r.sessionGUID === someone.sessionGuid)!;
    expect(row).toMatchObject({ teamMemberGUID: someone.teamMemberGuid, sessionActive: true });
    expect(row.sessionAccessToken).toMatch(/^.{12}…$/);
    expect(res.body).not.toContain(someone.token);
    const [stored] = await t.database.db.select().from(schema.staffSessions).where(eq(schema.staffSessions.guid, someone.sessionGuid));
    expect(res.body).not.toContain(stored!.accessTokenHash);
  });

  it('ends a session at once when its end time is edited', async () => {
    const someone = await loginAs(t.app, { accessLevel: 10, permissions: ['Wallet Exceptions List'] });
    expect((await list(walletExceptions, '', someone)).statusCode).toBe(200);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const res = await update(sessions, someone.sessionGuid, { sessionEndTimestamp: later });
    expect(res.statusCode).toBe(200);
    expect(Date.parse(res.json().sessionEndTimestamp)).toBeLessThanOrEqual(Date.now());
    const next = await list(walletExceptions, '', someone);
    expect(next.statusCode).toBe(401);
    expect(next.json().message).toBe('Session Expired, Logging Out.');
    const [entry] = (await auditEntries('session', someone.sessionGuid)).filter((e) => e.action === 'update');
    expect(entry!.after).not.toHaveProperty('sessionAccessToken');
  });

  it('ends a session at once when sessionActive is cleared; sending the row back unchanged does not', async () => {
    const someone = await loginAs(t.app, { accessLevel: 10, permissions: ['Wallet Exceptions List'] });
    const rows = (await list(sessions, '?pageSize=200')).json<Record<string, unknown>[]>();
    const row = rows.find((r) => r.sessionGUID === someone.sessionGuid)!;
    // As a date-and-time input sends it back: to the second.
    const unchanged = await update(sessions, someone.sessionGuid, {
      ...row,
      sessionEndTimestamp: (row.sessionEndTimestamp as string).replace(/\.\d{3}Z$/, 'Z'),
    });
    expect(unchanged.json()).toEqual(row);
    expect((await list(walletExceptions, '', someone)).statusCode).toBe(200);
    expect((await update(sessions, someone.sessionGuid, { sessionActive: false })).statusCode).toBe(200);
    expect((await list(walletExceptions, '', someone)).statusCode).toBe(401);
    // Ticking Active again does not revive a revoked token.
    expect((await update(sessions, someone.sessionGuid, { sessionActive: true })).statusCode).toBe(200);
    expect((await list(walletExceptions, '', someone)).statusCode).toBe(401);
  });

  it('has no create or delete', async () => {
    expect((await create(sessions, { sessionEndTimestamp: new Date().toISOString() })).statusCode).toBe(404);
    expect((await remove(sessions, admin.sessionGuid)).statusCode).toBe(404);
  });
});

describe('Audit Log', () => {
  it('lists entries newest first with before and after as JSON text, read only', async () => {
    const row = await created(walletExceptions, { walletExceptionOrderNumber: '30000001' });
    const res = await list(auditLog, `?search=${row.walletExceptionGUID as string}`);
    expect(res.statusCode).toBe(200);
    const [entry] = res.json<Record<string, unknown>[]>();
    expect(entry).toMatchObject({
      auditLogAction: 'create',
      auditLogResource: 'wallet-exceptions',
      auditLogUsername: admin.username,
      auditLogBefore: null,
    });
    expect(JSON.parse(entry!.auditLogAfter as string)).toEqual(row);
    expect((await create(auditLog, {})).statusCode).toBe(404);
  });
});

describe('paging, sort and search', () => {
  const orderNumbers = Array.from({ length: 30 }, (_, i) => `PG${String(i).padStart(3, '0')}${i % 3 === 0 ? '_x' : ''}`);
  beforeAll(async () => {
    await t.database.db
      .insert(schema.walletExceptions)
      .values(orderNumbers.map((orderNumber, i) => ({ orderNumber, skipRegistration: i % 2 === 0, skipImage: i % 5 === 0 })));
  });

  it('pages in the default order with the total in X-Total-Count', async () => {
    const first = await list(walletExceptions, '?search=PG&pageSize=7');
    expect(first.headers['x-total-count']).toBe('30');
    expect(first.json<Record<string, unknown>[]>().map((r) => r.walletExceptionOrderNumber)).toEqual(orderNumbers.slice(0, 7));
    const third = await list(walletExceptions, '?search=PG&pageSize=7&page=3');
    expect(third.json<Record<string, unknown>[]>().map((r) => r.walletExceptionOrderNumber)).toEqual(orderNumbers.slice(14, 21));
    const past = await list(walletExceptions, '?search=PG&pageSize=7&page=9');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('30');
  });

  it('sorts by any readable field, both directions, ties broken stably', async () => {
    const desc = await list(walletExceptions, '?search=PG&pageSize=200&sort=walletExceptionOrderNumber&direction=desc');
    expect(desc.json<Record<string, unknown>[]>().map((r) => r.walletExceptionOrderNumber)).toEqual([...orderNumbers].reverse());
    const bySkip = (await list(walletExceptions, '?search=PG&pageSize=200&sort=walletExceptionSkipRegistration')).json<
      Record<string, unknown>[]
    >();
    expect(bySkip.slice(0, 15).every((r) => r.walletExceptionSkipRegistration === false)).toBe(true);
    expect(bySkip.slice(15).every((r) => r.walletExceptionSkipRegistration === true)).toBe(true);
    const again = (await list(walletExceptions, '?search=PG&pageSize=200&sort=walletExceptionSkipRegistration')).json();
    expect(again).toEqual(bySkip);
    expect((await list(walletExceptions, '?sort=nope')).statusCode).toBe(400);
    expect((await list(walletExceptions, '?pageSize=201')).statusCode).toBe(400);
  });

  it('searches case-insensitively, taking % and _ literally', async () => {
    const underscore = await list(walletExceptions, '?search=_x&pageSize=200');
    expect(underscore.json<Record<string, unknown>[]>().map((r) => r.walletExceptionOrderNumber)).toEqual(
      orderNumbers.filter((n) => n.includes('_x')),
    );
    expect((await list(walletExceptions, '?search=pg00')).headers['x-total-count']).toBe('10');
    expect((await list(walletExceptions, '?search=%25')).json()).toEqual([]);
  });

  it('sorts text case-insensitively', async () => {
    for (const name of ['beta', 'Alpha', 'gamma'])
      await created(testPasses, { testPassesBarcode: `TP${name}`, testPassesDescription: `case ${name}` });
    const rows = (await list(testPasses, '?search=case&sort=testPassesDescription')).json<Record<string, unknown>[]>();
    expect(rows.map((r) => r.testPassesDescription)).toEqual(['case Alpha', 'case beta', 'case gamma']);
  });
});

describe('what staff configure reaches guests', () => {
  const guestLogin = (orderId: string, barcode: string) =>
    t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId, barcode }, remoteAddress: nextIp() });

  beforeAll(async () => {
    await putOrder(
      t.app,
      '50000001',
      anOrder([{ barcode: '5000000000000011', categoryId: '77', packId: '8801', merchItemId: '6601', holder: {} }]),
    );
  });

  it("a customization mapped to a ticket's category gives its colours", async () => {
    await created(
      passCustomizations,
      customization('Sunset', { passCustomizationBackgroundColor: '#FF7700', passCustomizationColor: '#101010' }),
    );
    await created(passCustomizationCategories, { passCustomizationTTcategoryID: '77', passCustomizationTTcustomizationName: 'Sunset' });
    const pass = (await guestLogin('50000001', '5000000000000011')).json();
    expect([pass.backgroundColor, pass.foregroundColor]).toEqual(['#ff7700', '#101010']);
  });

  it('a wallet exception sets skipRegistration', async () => {
    expect((await guestLogin('50000001', '5000000000000011')).json().skipRegistration).toBe(false);
    await created(walletExceptions, { walletExceptionOrderNumber: '50000001', walletExceptionSkipRegistration: true });
    expect((await guestLogin('50000001', '5000000000000011')).json().skipRegistration).toBe(true);
  });

  it('a wristband merch pack id marks the ticket', async () => {
    await created(wristbandMerchPackIds, { wristbandMerchPackIDsMerchItemID: 8801 });
    expect((await guestLogin('50000001', '5000000000000011')).json().isWristband).toBe(true);
  });

  it('an active exclusion shows its message; deactivated, it does not', async () => {
    const row = await created(walletItemExclusions, {
      walletItemExclusionMerchItemID: '6601',
      walletItemExclusionCustomError: 'Show your printed ticket.',
    });
    expect((await guestLogin('50000001', '5000000000000011')).json().excluded).toBe('Show your printed ticket.');
    await update(walletItemExclusions, row.walletItemExclusionsGUID as string, { walletItemExclusionActive: false });
    expect((await guestLogin('50000001', '5000000000000011')).json().excluded).toBeNull();
  });

  it('a test pass answers order id 0', async () => {
    await created(testPasses, {
      testPassesBarcode: '99000077',
      testPassesDescription: 'Gate check',
      testPassesData: JSON.stringify({ firstName: 'Tess' }),
    });
    const res = await guestLogin('0', '99000077');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ orderId: '0', barcode: '99000077', firstName: 'Tess' });
  });
});

it('documents the tab routes in the OpenAPI document', async () => {
  const doc = (await t.app.inject('/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
  expect(Object.keys(doc.paths['/api/admin/team-member/']!)).toEqual(expect.arrayContaining(['get', 'post']));
  expect(Object.keys(doc.paths['/api/admin/team-member/{id}']!)).toEqual(expect.arrayContaining(['put', 'delete']));
  expect(Object.keys(doc.paths['/api/admin/session/{id}']!)).toEqual(['put']);
});

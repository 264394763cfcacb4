// A fresh install seeds the permissions of the tab declarations and one administrator, whose
// generated password is printed once.
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_PERMISSION, permissionName } from '@boardwalk/contract/staff-tabs';
import { LOYALTY_PERMISSIONS } from '@boardwalk/contract/staff-loyalty-tabs';
import { resources } from '@boardwalk/contract/staff-navigation';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import * as schema from '@boardwalk/db/schema';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../../../test-support/test-app.ts';
import { verifyPassword } from './passwords.ts';
import { DEFAULT_ADMIN_EMAIL, seedPermissions } from './staff-seed.service.ts';

/** What the app writes to standard error while fn runs, and the lines it logs. */
async function capture<T>(fn: (logStream: { write(line: string): void }) => Promise<T>) {
  const written: string[] = [];
  const logLines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  try {
    const value = await fn({ write: (line) => void logLines.push(line) });
    return { value, stderr: written.join(''), log: logLines.join('') };
  } finally {
    spy.mockRestore();
  }
}

const loginBody = (teamMemberUsername: string, teamMemberPassword: string) => ({
  method: 'POST' as const,
  url: '/app/login/',
  payload: { teamMemberUsername, teamMemberPassword },
});

describe('the permissions seeded', () => {
  it('are one per tab operation, _Admin, the option lists and the loyalty ones, with their levels', () => {
    const rows = seedPermissions();
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect(byName.size).toBe(rows.length);
    for (const tab of resources) {
      expect(byName.get(permissionName(tab, 'List'))).toMatchObject({ api: tab.api, method: 'GET' });
      for (const [op, method] of [
        ['Create', 'POST'],
        ['Update', 'PUT'],
        ['Delete', 'DELETE'],
      ] as const) {
        const key = op.toLowerCase() as 'create' | 'update' | 'delete';
        if (tab.operations[key]) expect(byName.get(permissionName(tab, op))).toMatchObject({ api: tab.api, method });
        else expect(byName.has(permissionName(tab, op))).toBe(false);
      }
    }
    expect(byName.get(ADMIN_PERMISSION)).toEqual({ name: '_Admin', api: '/admin', method: 'GET', minimumAccessLevel: 1 });
    expect(byName.get('Pass Customization Options')).toEqual({
      name: 'Pass Customization Options',
      api: '/api/admin/pass-customizations/',
      method: 'GET',
      minimumAccessLevel: 1,
    });
    expect(byName.get('Team Member Options')).toEqual({
      name: 'Team Member Options',
      api: '/api/team-member/',
      method: 'GET',
      minimumAccessLevel: 1,
    });
    for (const name of LOYALTY_PERMISSIONS) expect(byName.has(name)).toBe(true);
    // The Wristbands tab is read-only: a list (level 1) and its own Deactivate (level 10).
    expect(byName.get('Wristbands List')).toEqual({
      name: 'Wristbands List',
      api: '/api/admin/wristbands/',
      method: 'GET',
      minimumAccessLevel: 1,
    });
    expect(byName.get('Wristbands Deactivate')).toEqual({
      name: 'Wristbands Deactivate',
      api: '/api/admin/wristbands/deactivate/',
      method: 'POST',
      minimumAccessLevel: 10,
    });
    for (const op of ['Create', 'Update', 'Delete']) expect(byName.has(`Wristbands ${op}`)).toBe(false);
    // Levels: configuration tabs 1 to list and 10 to change; Team, Permissions, Session, Audit Log 100.
    expect(byName.get('Pass Customizations List')!.minimumAccessLevel).toBe(1);
    expect(byName.get('Wristband Merch Pack IDs Delete')!.minimumAccessLevel).toBe(10);
    for (const name of ['Team List', 'Team Create', 'Permissions Update', 'Session List', 'Session Update', 'Audit Log List']) {
      expect(byName.get(name)!.minimumAccessLevel, name).toBe(100);
    }
    expect(byName.has('Session Create')).toBe(false);
    expect(byName.has('Session Delete')).toBe(false);
    expect(byName.has('Audit Log Update')).toBe(false);
  });
});

describe('seeding at start', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
    await database.close();
  });
  afterAll(() => vi.restoreAllMocks());

  const start = (env: Record<string, string> = {}) =>
    capture(async (logStream) => {
      const t = await createTestApp({ database, env: { LOG_LEVEL: 'info', ...env }, logStream });
      apps.push(t);
      return t;
    });

  it('prints a generated administrator password once, to standard error and never to the log, and it logs in', async () => {
    const first = await start({ ADMIN_PASSWORD: '' });
    const match = /Email: +(\S+)\n +Password: +(\S+)\n/.exec(first.stderr);
    expect(match, first.stderr).not.toBeNull();
    const [, email, password] = match!;
    expect(email).toBe(DEFAULT_ADMIN_EMAIL);
    expect(password!.length).toBeGreaterThanOrEqual(20);
    expect(first.log).not.toContain(password);

    const second = await start({ ADMIN_PASSWORD: '' });
    expect(second.stderr).not.toContain('Password:');
    expect(second.stderr).not.toContain(password);

    const res = await second.value.app.inject(loginBody(DEFAULT_ADMIN_EMAIL, password!));
    expect(res.statusCode).toBe(201);
    const names = res.json().permissions.map((p: { permissionName: string }) => p.permissionName);
    expect(names).toEqual(expect.arrayContaining(['_Admin', 'Team List', 'Audit Log List', ...LOYALTY_PERMISSIONS]));
    expect(names).toHaveLength(seedPermissions().length);
  });

  it('is idempotent across starts: one administrator, one row per permission, staff edits kept', async () => {
    const first = await start();
    const db = first.value.app.database.db;
    const permissionsAfterFirst = await db.select().from(schema.permissions).orderBy(asc(schema.permissions.name));
    expect(permissionsAfterFirst).toHaveLength(seedPermissions().length);
    const [admin] = await db.select().from(schema.teamMembers);
    expect(admin).toMatchObject({ username: DEFAULT_ADMIN_EMAIL, accessLevel: 1000, active: true });
    expect(await verifyPassword(admin!.passwordHash, TEST_ADMIN_PASSWORD)).toBe(true);
    expect(first.stderr).not.toContain('Password:'); // set from configuration: nothing to print

    // Staff raise a level and remove a permission; the next start keeps the first and restores the second.
    await db.update(schema.permissions).set({ minimumAccessLevel: 500 }).where(eq(schema.permissions.name, 'Team List'));
    await db.delete(schema.permissions).where(eq(schema.permissions.name, 'Team Delete'));

    await start();
    const permissionsAfterSecond = await db.select().from(schema.permissions).orderBy(asc(schema.permissions.name));
    expect(permissionsAfterSecond.map((p) => p.name)).toEqual(permissionsAfterFirst.map((p) => p.name));
    expect(permissionsAfterSecond.find((p) => p.name === 'Team List')!.minimumAccessLevel).toBe(500);
    expect(await db.select().from(schema.teamMembers)).toHaveLength(1);
  });

  it('names an API and method for every permission, the loyalty ones included, and gives them to rows stored without', async () => {
    for (const row of seedPermissions()) {
      expect(row.api, row.name).toMatch(/^\//);
      expect(['GET', 'POST', 'PUT', 'DELETE'], row.name).toContain(row.method);
    }
    expect(seedPermissions().filter((p) => (LOYALTY_PERMISSIONS as readonly string[]).includes(p.name))).toEqual([
      { name: 'Loyalty Remove Account', api: '/api/admin/loyalty/', method: 'DELETE', minimumAccessLevel: 100 },
      { name: 'Loyalty Remove Order', api: '/api/admin/loyalty/order/', method: 'DELETE', minimumAccessLevel: 100 },
      { name: 'Loyalty Redeem', api: '/api/admin/loyalty/redemptions/', method: 'POST', minimumAccessLevel: 100 },
      { name: 'Loyalty Manage', api: '/api/admin/loyalty/', method: 'POST', minimumAccessLevel: 100 },
      { name: 'Loyalty Export', api: '/api/admin/loyalty/export/', method: 'GET', minimumAccessLevel: 100 },
    ]);
    // An install seeded before the loyalty permissions named their API: the next start fills it in.
    const first = await start();
    const db = first.value.app.database.db;
    await db.update(schema.permissions).set({ api: null, method: null }).where(eq(schema.permissions.name, 'Loyalty Manage'));
    await db
      .update(schema.permissions)
      .set({ api: '/api/admin/loyalty/staff-set/' })
      .where(eq(schema.permissions.name, 'Loyalty Remove Order'));
    await start();
    const rows = await db.select().from(schema.permissions);
    expect(rows.find((p) => p.name === 'Loyalty Manage')).toMatchObject({ api: '/api/admin/loyalty/', method: 'POST' });
    expect(rows.find((p) => p.name === 'Loyalty Remove Order')).toMatchObject({ api: '/api/admin/loyalty/staff-set/' });
  });

  it('makes no administrator once any team member exists, even after the first one is renamed', async () => {
    const first = await start({ ADMIN_EMAIL: 'ops@pier.example' });
    const db = first.value.app.database.db;
    await db.update(schema.teamMembers).set({ username: 'renamed@pier.example' });
    const second = await start({ ADMIN_EMAIL: 'ops@pier.example', ADMIN_PASSWORD: '' });
    expect(second.stderr).not.toContain('Password:');
    expect((await db.select().from(schema.teamMembers)).map((m) => m.username)).toEqual(['renamed@pier.example']);
  });

  it('two instances starting at once on one database make one administrator and print once', async () => {
    const both = await capture(async (logStream) => {
      const started = await Promise.all([
        createTestApp({ database, env: { ADMIN_PASSWORD: '' }, logStream }),
        createTestApp({ database, env: { ADMIN_PASSWORD: '' }, logStream }),
      ]);
      apps.push(...started);
      return started;
    });
    expect(both.stderr.match(/Password:/g)).toHaveLength(1);
    const db = both.value[0]!.app.database.db;
    expect(await db.select().from(schema.teamMembers)).toHaveLength(1);
    expect(await db.select().from(schema.permissions)).toHaveLength(seedPermissions().length);
  });
});

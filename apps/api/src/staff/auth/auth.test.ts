// Staff login, sessions and the permission guard: 201 with a session, tokens stored hashed,
// 401 without a live session, 403 without the permission (compared by access level).
import { DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffLoginResult, staffMessages } from '@boardwalk/contract/staff-auth';
import { permissionName, tabPermission } from '@boardwalk/contract/staff-tabs';
import { passCustomizations } from '@boardwalk/contract/staff-pass-tabs';
import { teamMembers as teamTab } from '@boardwalk/contract/staff-team-tabs';
import * as schema from '@boardwalk/db/schema';
import type { App } from '../../app.ts';
import { createTeamMember, loginAs } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { hashSecret } from '../../platform/secrets.ts';

const GUARDED = '/test/guarded';
const SESSION_ONLY = '/test/session';

/** Test-only routes behind the two guards: a configuration tab's list and the session check. */
function guardedRoutes(app: App) {
  app.get(GUARDED, { preHandler: app.staffGuard(tabPermission(passCustomizations, 'List')) }, async (request) => ({
    staff: request.staff,
  }));
  app.get(SESSION_ONLY, { preHandler: app.staffSession }, async (request) => ({ staff: request.staff }));
}

const logins: string[] = [];
let t: TestApp;
let app: App;
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logStream: { write: (line) => void logins.push(line) }, extend: guardedRoutes });
  app = t.app;
});
afterAll(() => t.close());

let address = 0;
/** A new client address per call unless given: the per-address throttle stays out of the way. */
const login = (body: object, remoteAddress = `10.9.${Math.floor(++address / 250)}.${address % 250}`) =>
  app.inject({ method: 'POST', url: '/app/login/', payload: body, remoteAddress });
const get = (url: string, authorization?: string) => app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const db = () => app.database.db;

describe('POST /app/login/', () => {
  it('answers 201 with the login result: session, token, member and held permissions', async () => {
    const member = await createTeamMember(app, { accessLevel: 10, username: 'Maria.Gomez@Example.com', password: 'pier-39-sunset' });
    const before = Date.now();
    const res = await login({ teamMemberUsername: '  maria.gomez@example.com ', teamMemberPassword: 'pier-39-sunset' });
    expect(res.statusCode).toBe(201);
    const body = staffLoginResult.parse(res.json());
    expect(Object.keys(res.json()).sort()).toEqual(
      [
        'accessToken',
        'permissions',
        'sessionEndTimestamp',
        'sessionGUID',
        'sessionStartTimestamp',
        'teamMemberGUID',
        'teamMemberUsername',
      ].sort(),
    );
    expect(body.teamMemberGUID).toBe(member.teamMemberGuid);
    expect(body.teamMemberUsername).toBe('Maria.Gomez@Example.com');
    expect(body.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(body.sessionStartTimestamp).toMatch(/Z$/);
    const start = Date.parse(body.sessionStartTimestamp);
    expect(start).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.sessionEndTimestamp) - start).toBe(12 * 3_600_000);
    // Level 10: the configuration tabs and _Admin, not Team or Permissions (level 100).
    const names = body.permissions.map((p) => p.permissionName);
    expect(names).toContain('_Admin');
    expect(names).toContain(permissionName(passCustomizations, 'Create'));
    expect(names).not.toContain(permissionName(teamTab, 'List'));
    const [session] = await db().select().from(schema.staffSessions).where(eq(schema.staffSessions.guid, body.sessionGUID));
    expect(session!.accessTokenHash).toBe(hashSecret(body.accessToken));
    expect(session!.teamMemberGuid).toBe(member.teamMemberGuid);
  });

  it('answers a wrong username and a wrong password the same way', async () => {
    await createTeamMember(app, { accessLevel: 10, username: 'same.answer@example.com', password: 'the-right-one' });
    const unknown = await login({ teamMemberUsername: 'nobody.here@example.com', teamMemberPassword: 'the-right-one' });
    const wrong = await login({ teamMemberUsername: 'same.answer@example.com', teamMemberPassword: 'the-wrong-one' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.json()).toEqual({ statusCode: 401, error: 'UNAUTHORIZED', message: staffMessages.unableToLogin });
    const headerNames = (r: typeof unknown) =>
      Object.keys(r.headers)
        .filter((h) => h !== 'date')
        .sort();
    expect(headerNames(unknown)).toEqual(headerNames(wrong));
  });

  it('spends the same argon2 work on an unknown username as on a wrong password', async () => {
    await createTeamMember(app, { accessLevel: 10, username: 'timing@example.com', password: 'timing-password' });
    const time = async (username: string) => {
      const started = performance.now();
      await login({ teamMemberUsername: username, teamMemberPassword: 'not-it' });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(await time('timing@example.com'));
      unknown.push(await time(`unknown-${i}@example.com`));
    }
    // The fastest of each: a busy machine only adds time, so the minimum is the work itself
    // (the median once failed on a loaded machine). Without the dummy hash an unknown username
    // answers in a fraction of the time.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
  });

  it('refuses an inactive member with the same answer, even with the right password', async () => {
    await createTeamMember(app, { accessLevel: 1000, username: 'left.company@example.com', password: 'still-correct', active: false });
    const res = await login({ teamMemberUsername: 'left.company@example.com', teamMemberPassword: 'still-correct' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(staffMessages.unableToLogin);
  });

  it('answers 400 with a clear message for a blank or oversized username or password', async () => {
    for (const body of [
      {},
      { teamMemberUsername: '   ', teamMemberPassword: 'x' },
      { teamMemberUsername: 'a@example.com', teamMemberPassword: '' },
      { teamMemberUsername: `${'a'.repeat(250)}@example.com`, teamMemberPassword: 'x' },
      { teamMemberUsername: 'a@example.com', teamMemberPassword: 'x'.repeat(1025) },
      { teamMemberUsername: 'a\u0000@example.com', teamMemberPassword: 'x' },
      { teamMemberUsername: 42, teamMemberPassword: 'x' },
    ]) {
      const res = await login(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toMatch(/teamMember(Username|Password)|body/);
    }
  });

  it('stores passwords as argon2id hashes only', async () => {
    const member = await createTeamMember(app, { accessLevel: 1, password: 'plain-text-never-stored' });
    const rows = await db().select().from(schema.teamMembers);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    const dump = JSON.stringify(await db().select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, member.teamMemberGuid)));
    expect(dump).not.toContain('plain-text-never-stored');
  });
});

describe('access tokens', () => {
  it('are stored only as a hash: the token appears in no table of the database', async () => {
    const s = await loginAs(app, { accessLevel: 100 });
    await get(SESSION_ONLY, s.headers.authorization);
    // Both drivers answer { rows }; the shared Db type leaves the result untyped.
    const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
    const tables = {
      rows: await rowsOf<{ table_name: string }>(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    };
    expect(tables.rows.length).toBeGreaterThan(10);
    let found = 0;
    for (const { table_name } of tables.rows) {
      for (const { row } of await rowsOf<{ row: string }>(sql`select t::text as row from ${sql.identifier(table_name)} t`)) {
        expect(row, table_name).not.toContain(s.token);
        if (row.includes(hashSecret(s.token))) found++;
      }
    }
    expect(found).toBe(1); // the session row's accessTokenHash
  });
});

describe('the session check (app.staffSession)', () => {
  const expired = { statusCode: 401, error: 'UNAUTHORIZED', message: staffMessages.sessionExpired };

  it('passes a live session and sets request.staff', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    const res = await get(SESSION_ONLY, s.headers.authorization);
    expect(res.statusCode).toBe(200);
    expect(res.json().staff).toEqual({
      teamMemberGuid: s.teamMemberGuid,
      username: s.username,
      accessLevel: 5,
      sessionGuid: s.sessionGuid,
    });
    expect((await get(SESSION_ONLY, `bearer   ${s.token}`)).statusCode).toBe(200);
  });

  it('answers 401 Session Expired without a token, with a malformed or unknown one', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    for (const authorization of [
      undefined,
      s.token,
      `Basic ${s.token}`,
      'Bearer ',
      'Bearer short',
      `Bearer ${'A'.repeat(43)}`,
      `Bearer ${s.token}x`,
    ]) {
      const res = await get(SESSION_ONLY, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual(expired);
    }
  });

  it('answers 401 once the end time has passed', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(200);
    await db()
      .update(schema.staffSessions)
      .set({ endTimestamp: new Date(Date.now() - 1000) })
      .where(eq(schema.staffSessions.guid, s.sessionGuid));
    const res = await get(SESSION_ONLY, s.headers.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });

  it('answers 401 once the session is made inactive, and again when made active (end time kept)', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    await db().update(schema.staffSessions).set({ active: false }).where(eq(schema.staffSessions.guid, s.sessionGuid));
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(401);
    await db().update(schema.staffSessions).set({ active: true }).where(eq(schema.staffSessions.guid, s.sessionGuid));
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(200);
  });

  it('answers 401 once the member is made inactive', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    await db().update(schema.teamMembers).set({ active: false }).where(eq(schema.teamMembers.guid, s.teamMemberGuid));
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(401);
  });
});

describe('DELETE /app/logout/:sessionGUID', () => {
  it('ends the session: 204, then the next call with its token is 401', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    const res = await app.inject({ method: 'DELETE', url: `/app/logout/${s.sessionGuid}`, headers: s.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(401);
    const [row] = await db().select().from(schema.staffSessions).where(eq(schema.staffSessions.guid, s.sessionGuid));
    expect(row!.active).toBe(false);
    expect(row!.endTimestamp.getTime()).toBeLessThanOrEqual(Date.now());
    // A second logout with the ended token: 401.
    expect((await app.inject({ method: 'DELETE', url: `/app/logout/${s.sessionGuid}`, headers: s.headers })).statusCode).toBe(401);
  });

  it("may end only the caller's own session", async () => {
    const mine = await loginAs(app, { accessLevel: 1000 });
    const theirs = await loginAs(app, { accessLevel: 5 });
    const res = await app.inject({ method: 'DELETE', url: `/app/logout/${theirs.sessionGuid}`, headers: mine.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(staffMessages.forbidden);
    expect((await get(SESSION_ONLY, theirs.headers.authorization)).statusCode).toBe(200);
    expect((await get(SESSION_ONLY, mine.headers.authorization)).statusCode).toBe(200);
  });

  it('answers 401 without a token and 400 for a session id that is not one', async () => {
    const s = await loginAs(app, { accessLevel: 5 });
    expect((await app.inject({ method: 'DELETE', url: `/app/logout/${s.sessionGuid}` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'DELETE', url: '/app/logout/not-a-guid', headers: s.headers })).statusCode).toBe(400);
    expect((await get(SESSION_ONLY, s.headers.authorization)).statusCode).toBe(200);
  });
});

describe('the permission guard (app.staffGuard)', () => {
  const listPermission = permissionName(passCustomizations, 'List');
  const setPermission = (values: Partial<typeof schema.permissions.$inferInsert>) =>
    db().update(schema.permissions).set(values).where(eq(schema.permissions.name, listPermission));

  it('answers 401 without a session, 403 without the permission, and passes with it', async () => {
    expect((await get(GUARDED)).statusCode).toBe(401);
    const none = await loginAs(app, { accessLevel: 0 });
    const denied = await get(GUARDED, none.headers.authorization);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ statusCode: 403, error: 'FORBIDDEN', message: staffMessages.forbidden });
    const holder = await loginAs(app, { accessLevel: 1 });
    const ok = await get(GUARDED, holder.headers.authorization);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().staff.teamMemberGuid).toBe(holder.teamMemberGuid);
  });

  it('applies a raised minimum access level on the very next request, and a lowered one too', async () => {
    const s = await loginAs(app, { accessLevel: 50 });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(200);
    await setPermission({ minimumAccessLevel: 51 });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(403);
    await setPermission({ minimumAccessLevel: 50 });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(200);
    await setPermission({ minimumAccessLevel: 1 });
  });

  it('refuses while the permission is inactive', async () => {
    const s = await loginAs(app, { accessLevel: 1000 });
    await setPermission({ active: false });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(403);
    await setPermission({ active: true });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(200);
  });

  it('applies a member access level change at once', async () => {
    const s = await loginAs(app, { accessLevel: 1 });
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(200);
    await db().update(schema.teamMembers).set({ accessLevel: 0 }).where(eq(schema.teamMembers.guid, s.teamMemberGuid));
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(403);
  });

  it('checks the session before the permission: an ended session is 401 even with the permission', async () => {
    const s = await loginAs(app, { accessLevel: 1000 });
    await db()
      .update(schema.staffSessions)
      .set({ endTimestamp: new Date(Date.now() - 1) })
      .where(eq(schema.staffSessions.guid, s.sessionGuid));
    expect((await get(GUARDED, s.headers.authorization)).statusCode).toBe(401);
  });

  it('loginAs can grant named permissions to a low level', async () => {
    const s = await loginAs(app, { accessLevel: 3, permissions: [permissionName(teamTab, 'List')] });
    expect(s.result.permissions.map((p) => p.permissionName)).toContain(permissionName(teamTab, 'List'));
  });
});

describe('the audit log and the log', () => {
  it('records logins, failed logins (the username tried) and logouts, never a password or token', async () => {
    const member = await createTeamMember(app, { accessLevel: 5, username: 'audited@example.com', password: 'audit-password-1' });
    await login({ teamMemberUsername: 'audited@example.com', teamMemberPassword: 'audit-password-wrong' });
    await login({ teamMemberUsername: 'ghost@example.com', teamMemberPassword: 'audit-password-ghost' });
    const ok = await login({ teamMemberUsername: 'AUDITED@example.com', teamMemberPassword: 'audit-password-1' });
    const { sessionGUID, accessToken } = ok.json();
    await app.inject({ method: 'DELETE', url: `/app/logout/${sessionGUID}`, headers: { authorization: `Bearer ${accessToken}` } });

    const entries = await db().select().from(schema.auditLog).orderBy(schema.auditLog.id);
    const mine = entries.filter((e) => e.username?.toLowerCase() === 'audited@example.com' || e.username === 'ghost@example.com');
    expect(mine.map((e) => [e.action, e.username, e.teamMemberGuid, e.resource])).toEqual([
      ['login-failed', 'audited@example.com', member.teamMemberGuid, 'session'],
      ['login-failed', 'ghost@example.com', null, 'session'],
      ['login', 'audited@example.com', member.teamMemberGuid, 'session'],
      ['logout', 'audited@example.com', member.teamMemberGuid, 'session'],
    ]);
    expect(mine[2]!.recordId).toBe(sessionGUID);
    expect(mine[3]!.recordId).toBe(sessionGUID);
    const all = JSON.stringify(entries);
    for (const secret of [
      'audit-password-1',
      'audit-password-wrong',
      'audit-password-ghost',
      accessToken,
      hashSecret(accessToken),
      '$argon2id$',
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it('never has a token, password or password hash in a log line', async () => {
    const password = 'log-line-password-7';
    const member = await createTeamMember(app, { accessLevel: 1000, username: 'logged@example.com', password });
    await login({ teamMemberUsername: 'logged@example.com', teamMemberPassword: 'log-line-wrong-8' });
    const ok = await login({ teamMemberUsername: 'logged@example.com', teamMemberPassword: password });
    const { accessToken, sessionGUID } = ok.json();
    await get(GUARDED, `Bearer ${accessToken}`);
    await get(SESSION_ONLY, `Bearer ${accessToken}`);
    await login({ teamMemberUsername: 'logged@example.com', teamMemberPassword: 'x'.repeat(2000) });
    await app.inject({
      method: 'POST',
      url: '/app/login/',
      payload: `{"teamMemberUsername":"logged@example.com","teamMemberPassword":"${password}`,
      headers: { 'content-type': 'application/json' },
    });
    await app.inject({ method: 'DELETE', url: `/app/logout/${sessionGUID}`, headers: { authorization: `Bearer ${accessToken}` } });
    const [row] = await db().select().from(schema.teamMembers).where(eq(schema.teamMembers.guid, member.teamMemberGuid));

    const log = logins.join('');
    expect(log).toContain('/app/login/');
    expect(log).toContain('request completed');
    for (const secret of [password, 'log-line-wrong-8', accessToken, hashSecret(accessToken), row!.passwordHash, 'x'.repeat(100)]) {
      expect(log).not.toContain(secret);
    }
  });

  it('masks a password, token or Authorization header that a log call passes along', () => {
    const before = logins.length;
    app.log.info(
      {
        teamMemberPassword: 'direct-password-1',
        body: { teamMemberPassword: 'nested-password-2', accessToken: 'nested-token-3' },
        headers: { authorization: 'Bearer header-token-6' },
        member: { passwordHash: '$argon2id$v=19$hash-7', password: 'plain-8' },
      },
      'carrying secrets',
    );
    const line = logins.slice(before).join('');
    expect(line).toContain('carrying secrets');
    expect(line).toContain('[redacted]');
    for (const secret of ['direct-password-1', 'nested-password-2', 'nested-token-3', 'header-token-6', 'hash-7', 'plain-8']) {
      expect(line).not.toContain(secret);
    }
  });

  it("leaves a failed query's parameters (hashes, tokens) out of a logged error", () => {
    const before = logins.length;
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "staff_sessions_access_token_hash_unique"'), {
      code: '23505',
      detail: 'Key (access_token_hash)=(detail-hash-1) already exists.',
    });
    const failed = new DrizzleQueryError(
      'insert into "staff_sessions" ("access_token_hash") values ($1)',
      ['param-hash-2', '$argon2id$v=19$param-3\nsecond line'],
      cause,
    );
    app.log.error({ err: failed }, 'unhandled error');
    const line = logins.slice(before).join('');
    expect(line).toContain('insert into');
    expect(line).toContain('23505');
    expect(line).toContain('params: [redacted]');
    for (const secret of ['detail-hash-1', 'param-hash-2', 'param-3', 'second line']) expect(line).not.toContain(secret);
    app.log.warn({ err: 'a plain message' }, 'plain');
    expect(logins.at(-1)).toContain('"err":"a plain message"');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import * as schema from '@boardwalk/db/schema';
import { recordAudit } from './audit.repo.ts';

describe('recordAudit', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('writes who, what, which record, before and after, leaving out any password, hash or token field', async () => {
    await recordAudit(database.db, {
      teamMemberGuid: null,
      username: 'someone@example.com',
      action: 'update',
      resource: 'team',
      recordId: 'abc',
      before: { teamMemberFirstName: 'Ana', teamMemberPassword: 'old-secret-1', passwordHash: '$argon2id$x' },
      after: { teamMemberFirstName: 'Ann', teamMemberPassword: 'new-secret-2', sessionAccessToken: 'tok', accessTokenHash: 'h' },
    });
    const [row] = await database.db.select().from(schema.auditLog);
    expect(row).toMatchObject({ username: 'someone@example.com', action: 'update', resource: 'team', recordId: 'abc' });
    expect(row!.before).toEqual({ teamMemberFirstName: 'Ana' });
    expect(row!.after).toEqual({ teamMemberFirstName: 'Ann' });
    expect(row!.at).toBeInstanceOf(Date);
  });

  it('keeps null before and after as null', async () => {
    await recordAudit(database.db, { teamMemberGuid: null, username: null, action: 'login-failed', resource: 'session' });
    const rows = await database.db.select().from(schema.auditLog);
    expect(rows.at(-1)).toMatchObject({ before: null, after: null, recordId: null });
  });
});

// The body and query schemas generated from the declarations (no database).
import { describe, expect, it } from 'vitest';
import { auditLog, sessions, teamMembers } from '@boardwalk/contract/staff-team-tabs';
import { passCustomizationCategories, passCustomizations, walletItemExclusions } from '@boardwalk/contract/staff-pass-tabs';
import { resources } from '@boardwalk/contract/staff-navigation';
import { wristbandMerchPackIds } from '@boardwalk/contract/staff-wristband-tabs';
import { createBodySchema, listQuerySchema, rowSchema, updateBodySchema } from './resource-schemas.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

const customization = {
  passCustomizationName: '  Gold  ',
  passCustomizationBackgroundColor: '#1B4965',
  passCustomizationColor: 'ffffff',
  passCustomizationInstructions: 'Line one\nLine two',
};

describe('create bodies', () => {
  const create = createBodySchema(passCustomizations);

  it('trims text, strips the # of colours and keeps only settable fields', () => {
    expect(create.parse({ ...customization, passCustomizationGUID: 'ignored' })).toEqual({
      passCustomizationName: 'Gold',
      passCustomizationBackgroundColor: '1b4965',
      passCustomizationColor: 'ffffff',
      passCustomizationInstructions: 'Line one\nLine two',
    });
  });

  it('refuses a missing or blank required field, naming its label', () => {
    expect(messages(create.safeParse({ ...customization, passCustomizationName: '   ' }))).toEqual([
      'passCustomizationName: Name is required',
    ]);
    const { passCustomizationColor: _, ...withoutColor } = customization;
    expect(messages(create.safeParse(withoutColor))).toEqual(['passCustomizationColor: Color is required']);
  });

  it('refuses unknown fields at their own path', () => {
    expect(messages(create.safeParse({ ...customization, colour: 'red' }))).toEqual(['colour: Unknown field']);
  });

  it('refuses bad colours, long text and control characters', () => {
    expect(messages(create.safeParse({ ...customization, passCustomizationColor: '#12345' }))).toEqual([
      'passCustomizationColor: Color must be a colour of 6 hex digits, e.g. 1b4965',
    ]);
    expect(messages(create.safeParse({ ...customization, passCustomizationColor: 123456 }))).toEqual([
      'passCustomizationColor: Color must be a colour of 6 hex digits',
    ]);
    expect(messages(create.safeParse({ ...customization, passCustomizationName: 'x'.repeat(101) }))).toEqual([
      'passCustomizationName: Name must be at most 100 characters',
    ]);
    expect(messages(create.safeParse({ ...customization, passCustomizationName: 'a\u0000b' }))).toEqual([
      'passCustomizationName: Name must not contain control characters',
    ]);
    expect(create.safeParse({ ...customization, passCustomizationInstructions: 'tab\there\r\n' }).success).toBe(true);
  });

  it('clears optional text sent blank, and takes booleans only as booleans', () => {
    expect(create.parse({ ...customization, passCustomizationGoogleURI: '  ', passCustomizationHideBarcode: true })).toMatchObject({
      passCustomizationGoogleURI: null,
      passCustomizationHideBarcode: true,
    });
    expect(messages(create.safeParse({ ...customization, passCustomizationHideBarcode: 'yes' }))).toEqual([
      'passCustomizationHideBarcode: Hide Barcode must be true or false',
    ]);
  });

  it('refuses notOnCreate fields and needs the password of a new team member', () => {
    const member = {
      teamMemberFirstName: 'Rosa',
      teamMemberLastName: 'Diaz',
      teamMemberInternalID: 'E-1',
      teamMemberUsername: 'rosa@example.com',
      teamMemberAccessLevel: 10,
    };
    const createMember = createBodySchema(teamMembers);
    expect(messages(createMember.safeParse(member))).toEqual(['teamMemberPassword: Change Password is required']);
    expect(messages(createMember.safeParse({ ...member, teamMemberPassword: 'short' }))).toEqual([
      'teamMemberPassword: Change Password must be at least 12 characters',
    ]);
    expect(messages(createMember.safeParse({ ...member, teamMemberPassword: 'long enough pass', teamMemberActive: true }))).toEqual([
      'teamMemberActive: Active cannot be set when creating',
    ]);
    expect(messages(createMember.safeParse({ ...member, teamMemberPassword: 'long enough pass', teamMemberUsername: 'rosa' }))).toEqual([
      'teamMemberUsername: Email must be an email address',
    ]);
    expect(createMember.parse({ ...member, teamMemberPassword: ' spaces kept ' }).teamMemberPassword).toBe(' spaces kept ');
  });

  it('takes whole numbers within the declared bounds', () => {
    const create = createBodySchema(wristbandMerchPackIds);
    expect(create.parse({ wristbandMerchPackIDsMerchItemID: 340 })).toEqual({ wristbandMerchPackIDsMerchItemID: 340 });
    const range = ['wristbandMerchPackIDsMerchItemID: Merch Item ID must be a whole number from 0 to 999999999999'];
    expect(messages(create.safeParse({ wristbandMerchPackIDsMerchItemID: -1 }))).toEqual(range);
    expect(messages(create.safeParse({ wristbandMerchPackIDsMerchItemID: 1e12 }))).toEqual(range);
    expect(messages(create.safeParse({ wristbandMerchPackIDsMerchItemID: 1.5 }))).toEqual(range);
    expect(messages(create.safeParse({ wristbandMerchPackIDsMerchItemID: '340' }))).toEqual([
      'wristbandMerchPackIDsMerchItemID: Merch Item ID must be a number',
    ]);
  });

  it('takes datetimes with an offset, or null', () => {
    const create = createBodySchema(walletItemExclusions);
    // An exclusion names an item or a pack (requireOneOf); here an item.
    const item = { walletItemExclusionMerchItemID: '7777' };
    expect(create.parse({ ...item, walletItemExclusionValidFrom: '2026-11-21T11:02:09-08:00', walletItemExclusionValidTo: null })).toEqual({
      ...item,
      walletItemExclusionValidFrom: new Date('2026-11-21T19:02:09Z'),
      walletItemExclusionValidTo: null,
    });
    expect(messages(create.safeParse({ walletItemExclusionValidFrom: '2026-11-21T11:02:09' }))).toEqual([
      'walletItemExclusionValidFrom: Valid From must be a date and time in ISO 8601 with an offset, e.g. 2026-11-21T11:02:09-08:00',
    ]);
    // Read-only fields are ignored.
    expect(create.parse({ ...item, walletItemExclusionCreatedTimestamp: 'whatever' })).toEqual(item);
  });

  it('refuses a wallet item exclusion that names neither a merch item nor a merch pack', () => {
    const create = createBodySchema(walletItemExclusions);
    for (const body of [
      {},
      { walletItemExclusionMerchItemID: '  ', walletItemExclusionMerchPackID: null },
      { walletItemExclusionCustomError: 'Not here' },
    ]) {
      expect(messages(create.safeParse(body))).toEqual(['walletItemExclusionMerchItemID: Merch Item ID or Merch Pack ID is required']);
    }
    expect(create.parse({ walletItemExclusionMerchPackID: 'P-1' })).toEqual({ walletItemExclusionMerchPackID: 'P-1' });
  });

  it('needs a non-empty select value', () => {
    const create = createBodySchema(passCustomizationCategories);
    expect(messages(create.safeParse({ passCustomizationTTcustomizationName: '' }))).toEqual([
      'passCustomizationTTcustomizationName: Customization is required',
    ]);
  });
});

describe('update bodies', () => {
  it('takes any subset; a required field may not be blanked', () => {
    const update = updateBodySchema(passCustomizations);
    expect(update.parse({ passCustomizationColor: '#ABCDEF' })).toEqual({ passCustomizationColor: 'abcdef' });
    expect(messages(update.safeParse({ passCustomizationInstructions: ' ' }))).toEqual([
      'passCustomizationInstructions: Instructions is required',
    ]);
    expect(messages(update.safeParse({ passCustomizationInstructions: null }))).toEqual([
      'passCustomizationInstructions: Instructions is required',
    ]);
  });

  it('keeps the password when the field is left blank', () => {
    const update = updateBodySchema(teamMembers);
    expect(update.parse({ teamMemberPassword: '', teamMemberActive: false })).toEqual({ teamMemberActive: false });
    expect(update.parse({ teamMemberPassword: 'a new password!' })).toEqual({ teamMemberPassword: 'a new password!' });
  });

  it('ignores read-only fields and the id', () => {
    const update = updateBodySchema(sessions);
    expect(update.parse({ sessionGUID: 'x', sessionAccessToken: 'y', teamMemberGUID: 'z', sessionActive: false })).toEqual({
      sessionActive: false,
    });
    expect(messages(update.safeParse({ sessionEndTimestamp: null }))).toEqual(['sessionEndTimestamp: End is required']);
  });
});

describe('list queries and rows', () => {
  it('defaults paging and checks sort fields', () => {
    const query = listQuerySchema(teamMembers);
    expect(query.parse({})).toEqual({ page: 1, pageSize: 50 });
    expect(query.parse({ page: '3', pageSize: '200', sort: 'teamMemberUsername', direction: 'desc', search: ' ros ' })).toEqual({
      page: 3,
      pageSize: 200,
      sort: 'teamMemberUsername',
      direction: 'desc',
      search: 'ros',
    });
    expect(query.safeParse({ pageSize: '201' }).success).toBe(false);
    expect(query.safeParse({ page: '0' }).success).toBe(false);
    expect(query.safeParse({ sort: 'teamMemberPassword' }).success).toBe(false);
    expect(query.safeParse({ direction: 'sideways' }).success).toBe(false);
  });

  it('answers rows without write-only fields', () => {
    for (const tab of resources) {
      const keys = Object.keys(rowSchema(tab).shape);
      expect(keys).toContain(tab.idField);
      expect(keys).not.toContain('teamMemberPassword');
    }
    expect(Object.keys(rowSchema(auditLog).shape)).toContain('auditLogBefore');
  });
});

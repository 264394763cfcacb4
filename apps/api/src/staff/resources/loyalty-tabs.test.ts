// The Loyalty Rewards and Loyalty Tiers tabs: declared like every tab, with the rules the
// generic routes cannot know (dates in order, one tier per name and threshold, a tier a
// reward needs cannot go, the Minimum Tier option list) and nothing seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loyaltyRewards, loyaltyTiers } from '@boardwalk/contract/staff-loyalty-tabs';
import { OPTION_LISTS, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import * as schema from '@boardwalk/db/schema';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let admin: StaffLogin;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, { accessLevel: 1000 });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: StaffLogin = admin) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
const create = (tab: ResourceDeclaration, body: object) => call('POST', tab.api, body);
async function created(tab: ResourceDeclaration, body: object) {
  const res = await create(tab, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Record<string, unknown>>();
}
const tier = (name: string, points: number) => ({ loyaltyTierName: name, loyaltyTierPointsToReach: points, loyaltyTierActive: true });
const reward = (name: string, extra: object = {}) => ({ loyaltyRewardName: name, loyaltyRewardPointsCost: 100, ...extra });

describe('the loyalty tiers tab', () => {
  it('starts empty on a fresh install', async () => {
    expect(await t.database.db.$count(schema.loyaltyTiers)).toBe(0);
    expect(await t.database.db.$count(schema.loyaltyRewards)).toBe(0);
    const res = await call('GET', loyaltyTiers.api);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('creates tiers; refuses a second tier with the same name or threshold (409) and a threshold below 1 (400)', async () => {
    const silver = await created(loyaltyTiers, tier('Silver', 500));
    expect(silver).toMatchObject({ loyaltyTierName: 'Silver', loyaltyTierPointsToReach: 500, loyaltyTierActive: true });
    expect((await create(loyaltyTiers, tier('Silver', 700))).statusCode).toBe(409);
    const sameThreshold = await create(loyaltyTiers, tier('Gold', 500));
    expect(sameThreshold.statusCode).toBe(409);
    expect(sameThreshold.json().message).toContain('already in use');
    const zero = await create(loyaltyTiers, tier('Bronze', 0));
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toContain('Points Earned in 365 Days to Reach must be a whole number from 1');
    expect(await t.database.db.$count(schema.loyaltyTiers)).toBe(1);
  });
});

describe('the loyalty rewards tab', () => {
  it('creates a reward with every field, its minimum tier picked from the tier option list', async () => {
    await created(loyaltyTiers, tier('Gold', 2000));
    const options = await call('GET', OPTION_LISTS.loyaltyTiers.api);
    expect(options.statusCode).toBe(200);
    expect(options.json()).toEqual([
      { value: 'Silver', label: 'Silver' },
      { value: 'Gold', label: 'Gold' },
    ]);
    const row = await created(
      loyaltyRewards,
      reward('Free churro', {
        loyaltyRewardDescription: 'One churro at any food stand',
        loyaltyRewardActive: true,
        loyaltyRewardValidFrom: '2026-06-01T00:00:00-07:00',
        loyaltyRewardValidTo: '2026-09-01T00:00:00-07:00',
        loyaltyRewardMinimumTier: 'Gold',
        loyaltyRewardLimitPerMember: 2,
      }),
    );
    expect(row).toMatchObject({
      loyaltyRewardName: 'Free churro',
      loyaltyRewardPointsCost: 100,
      loyaltyRewardMinimumTier: 'Gold',
      loyaltyRewardLimitPerMember: 2,
      loyaltyRewardValidFrom: '2026-06-01T07:00:00.000Z',
    });
    // Renaming the tier follows into the reward; deleting a tier a reward needs is refused.
    const gold = (await call('GET', `${loyaltyTiers.api}?search=Gold`)).json()[0];
    expect((await call('PUT', `${loyaltyTiers.api}${gold.loyaltyTierID}`, { loyaltyTierName: 'Gold Club' })).statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(schema.loyaltyRewards);
    expect(stored!.minimumTier).toBe('Gold Club');
    const removal = await call('DELETE', `${loyaltyTiers.api}${gold.loyaltyTierID}`);
    expect(removal.statusCode).toBe(409);
    expect(removal.json().message).toContain('still used by Loyalty Rewards');
  });

  it('refuses a cost below 1, a limit below 1, an unknown tier and dates out of order, and writes nothing', async () => {
    const before = await t.database.db.$count(schema.loyaltyRewards);
    const refusals = [
      [reward('Zero', { loyaltyRewardPointsCost: 0 }), 'Points Cost must be a whole number from 1'],
      [reward('No limit', { loyaltyRewardLimitPerMember: 0 }), 'Limit per Member must be a whole number from 1'],
      [reward('Platinum only', { loyaltyRewardMinimumTier: 'Platinum' }), 'Minimum Tier "Platinum" does not exist.'],
      [
        reward('Backwards', { loyaltyRewardValidFrom: '2026-09-01T00:00:00Z', loyaltyRewardValidTo: '2026-06-01T00:00:00Z' }),
        'Valid To must not be before Valid From',
      ],
    ] as const;
    for (const [body, message] of refusals) {
      const res = await create(loyaltyRewards, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(await t.database.db.$count(schema.loyaltyRewards)).toBe(before);
  });

  it('is for administrators: a member below level 100 can neither list nor change the rewards or tiers', async () => {
    const clerk = await loginAs(t.app, { accessLevel: 10 });
    for (const tab of [loyaltyRewards, loyaltyTiers]) {
      expect((await call('GET', tab.api, undefined, clerk)).statusCode).toBe(403);
      expect((await call('POST', tab.api, reward('Clerk'), clerk)).statusCode).toBe(403);
    }
  });
});

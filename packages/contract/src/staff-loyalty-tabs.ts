// The Loyalty group: the club's page of its own (find, create and manage a member's account),
// its tiers and its rewards catalogue. Only administrators list and change them.
import {
  activeField,
  adminPermission,
  ALL_OPERATIONS,
  longTextField,
  translatedFields,
  validityFields,
  wholeNumberField,
  type PageDeclaration,
  type ResourceDeclaration,
} from './staff-tabs.ts';

/** A points figure: at least one, at most a hundred million. */
const POINTS = { min: 1, maxValue: 100_000_000 };

/**
 * The loyalty club's tiers: a member's tier is the highest active tier whose points to reach
 * their points earned in the last 365 days reach (earns minus reversals; spending and expiry
 * do not count). A fresh install has none. Two tiers never share a name or a threshold.
 */
export const loyaltyTiers: ResourceDeclaration = {
  key: 'loyalty-tiers',
  adminOnly: true,
  republishesMemberCards: true,
  title: 'Loyalty Tiers',
  api: '/api/admin/loyalty-tiers/',
  idField: 'loyaltyTierID',
  idColumn: 'id',
  table: 'loyaltyTiers',
  operations: ALL_OPERATIONS,
  searchFields: ['loyaltyTierName'],
  defaultSort: { field: 'loyaltyTierPointsToReach', direction: 'asc' },
  fields: [
    ...translatedFields({ name: 'loyaltyTierName', label: 'Name', type: 'text', column: 'name', required: true, max: 50 }),
    wholeNumberField('loyaltyTierPointsToReach', 'Points Earned in 365 Days to Reach', 'pointsToReach', POINTS, { required: true }),
    activeField('loyaltyTierActive'),
  ],
};

/**
 * The rewards catalogue: what a member can redeem points for at the tills and in the Loyalty
 * tab, while active and within its dates, from its minimum tier, at most its limit per member.
 */
export const loyaltyRewards: ResourceDeclaration = {
  key: 'loyalty-rewards',
  adminOnly: true,
  title: 'Loyalty Rewards',
  api: '/api/admin/loyalty-rewards/',
  idField: 'loyaltyRewardID',
  idColumn: 'id',
  table: 'loyaltyRewards',
  operations: ALL_OPERATIONS,
  searchFields: ['loyaltyRewardName', 'loyaltyRewardDescription'],
  defaultSort: { field: 'loyaltyRewardPointsCost', direction: 'asc' },
  fields: [
    ...translatedFields({ name: 'loyaltyRewardName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 }),
    ...translatedFields(longTextField('loyaltyRewardDescription', 'Description', 'description', { max: 2000 })),
    wholeNumberField('loyaltyRewardPointsCost', 'Points Cost', 'pointsCost', POINTS, { required: true }),
    activeField('loyaltyRewardActive'),
    ...validityFields('loyaltyReward'),
    { name: 'loyaltyRewardMinimumTier', label: 'Minimum Tier', type: 'select', column: 'minimumTier', options: 'loyaltyTiers' },
    wholeNumberField('loyaltyRewardLimitPerMember', 'Limit per Member', 'limitPerMember', { min: 1, maxValue: 1_000_000 }),
  ],
};

/**
 * The Loyalty tab's permissions, each seeded at level 100: managing accounts (the admin loyalty
 * calls, and the tab itself), removing an account, removing an order, redeeming a reward
 * for a member or reversing a redemption (points spent like money at a till), and exporting
 * the members and the ledger.
 */
export const LOYALTY = {
  manage: adminPermission('Loyalty Manage', '/api/admin/loyalty/', 'POST'),
  removeAccount: adminPermission('Loyalty Remove Account', '/api/admin/loyalty/', 'DELETE'),
  removeOrder: adminPermission('Loyalty Remove Order', '/api/admin/loyalty/order/', 'DELETE'),
  redeem: adminPermission('Loyalty Redeem', '/api/admin/loyalty/redemptions/', 'POST'),
  /** Downloading the members (with balance and tier) and the ledger between two dates as CSV. */
  export: adminPermission('Loyalty Export', '/api/admin/loyalty/export/', 'GET'),
};

/** The Loyalty tab: a page of its own (find, create and manage a member's account). */
export const loyalty: PageDeclaration = {
  key: 'loyalty',
  title: 'Loyalty',
  page: 'loyalty',
  permission: LOYALTY.manage,
  permissions: [LOYALTY.removeAccount, LOYALTY.removeOrder, LOYALTY.redeem, LOYALTY.manage, LOYALTY.export],
};
export const LOYALTY_PERMISSIONS = loyalty.permissions.map((p) => p.name);

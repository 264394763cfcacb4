// The Loyalty group: the club's page of its own (find, create and manage a member's account),
// its tiers and its rewards catalogue. Only administrators list and change them.
import {
  activeField,
  adminPermission,
  ALL_OPERATIONS,
  longTextField,
  readOnlyFields,
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
    // Tier priority for passholder reservations: blank is VISIT_DAYS_AHEAD.
    wholeNumberField('loyaltyTierVisitDaysAhead', 'Reservations Open Days Ahead', 'visitDaysAhead', { min: 0, maxValue: 365 }),
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

/** What a campaign gives: on a claimed purchase its earn multiplied or a fixed number of points; or a gift on the member's birthday. */
export const CAMPAIGN_KINDS = [
  { value: 'multiplier', label: 'Multiplier' },
  { value: 'bonus', label: 'Fixed Bonus' },
  { value: 'birthday', label: 'Birthday Gift' },
  { value: 'referral', label: 'Referral' },
  { value: 'challenge', label: 'Challenge' },
];

/** What a challenge counts within its dates (docs/loyalty-campaigns.md). */
export const CHALLENGE_GOALS = [
  { value: 'days', label: 'Days Visited' },
  { value: 'outlets', label: 'Food Outlets' },
  { value: 'nights', label: 'Hotel Nights' },
];

/**
 * The club's campaigns: on each claimed purchase of the kinds it names, made on an operating day
 * within its dates, by a member of its minimum tier or above, a bonus entry of the ledger (the
 * earn times the multiplier minus the earn, or the fixed bonus); or, on a member's birthday
 * within its dates, its bonus points once a year; or, to a member who joined through another's
 * referral link and to that member, its bonus points at the new member's first claim; or, to a
 * member who reaches its goal (days visited, food outlets, hotel nights) within its dates, its
 * bonus points once. The best single campaign applies, cut to what
 * is left of its budget and of the member's cap. The figures are counted from the ledger when the
 * list is read (docs/loyalty-campaigns.md).
 */
export const loyaltyCampaigns: ResourceDeclaration = {
  key: 'loyalty-campaigns',
  adminOnly: true,
  title: 'Loyalty Campaigns',
  api: '/api/admin/loyalty-campaigns/',
  idField: 'loyaltyCampaignID',
  idColumn: 'id',
  table: 'loyaltyCampaigns',
  operations: ALL_OPERATIONS,
  // A challenge shows on every member card.
  republishesMemberCards: true,
  searchFields: ['loyaltyCampaignName'],
  defaultSort: { field: 'loyaltyCampaignFrom', direction: 'desc' },
  fields: [
    ...translatedFields({ name: 'loyaltyCampaignName', label: 'Name', type: 'text', column: 'name', required: true, max: 80 }),
    { name: 'loyaltyCampaignKind', label: 'Kind', type: 'select', column: 'kind', choices: CAMPAIGN_KINDS, required: true },
    { name: 'loyaltyCampaignMultiplier', label: 'Multiplier', type: 'number', column: 'multiplier', min: 1.01, maxValue: 10, decimals: 2 },
    wholeNumberField('loyaltyCampaignBonusPoints', 'Bonus Points', 'bonusPoints', { min: 1, maxValue: 1_000_000 }),
    { name: 'loyaltyCampaignFrom', label: 'From (Operating Day)', type: 'date', column: 'validFrom', required: true },
    { name: 'loyaltyCampaignTo', label: 'To (Operating Day)', type: 'date', column: 'validTo', required: true },
    { name: 'loyaltyCampaignTickets', label: 'Tickets', type: 'checkbox', column: 'tickets' },
    { name: 'loyaltyCampaignFoodAndBeverage', label: 'Food and Beverage', type: 'checkbox', column: 'foodAndBeverage' },
    { name: 'loyaltyCampaignHotel', label: 'Hotel', type: 'checkbox', column: 'hotel' },
    { name: 'loyaltyCampaignMinimumTier', label: 'Minimum Tier', type: 'select', column: 'minimumTier', options: 'loyaltyTiers' },
    wholeNumberField('loyaltyCampaignBudget', 'Points Budget', 'budget', POINTS),
    wholeNumberField('loyaltyCampaignCapPerMember', 'Cap per Member', 'capPerMember', POINTS),
    wholeNumberField('loyaltyCampaignReferralsPerMonth', 'Referrals per Member per Month', 'referralsPerMonth', { min: 1, maxValue: 1000 }),
    { name: 'loyaltyCampaignGoal', label: 'Challenge Goal', type: 'select', column: 'goal', choices: CHALLENGE_GOALS },
    wholeNumberField('loyaltyCampaignGoalCount', 'Goal Count', 'goalCount', { min: 1, maxValue: 366 }),
    activeField('loyaltyCampaignActive'),
    ...readOnlyFields([
      { name: 'loyaltyCampaignStatus', label: 'Status', type: 'text', column: 'status', computed: true },
      { name: 'loyaltyCampaignPointsAwarded', label: 'Points Awarded', type: 'number', column: 'pointsAwarded', computed: true },
      { name: 'loyaltyCampaignMembersReached', label: 'Members Reached', type: 'number', column: 'membersReached', computed: true },
      { name: 'loyaltyCampaignBudgetLeft', label: 'Budget Left', type: 'number', column: 'budgetLeft', computed: true },
    ]),
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

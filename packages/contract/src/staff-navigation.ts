// The back office's navigation, declared once: its groups and their tabs, every tab in order,
// the table tabs (one route set each on the server) and every permission a fresh install seeds.
import { loyalty, loyaltyCampaigns, loyaltyRewards, loyaltyTiers } from './staff-loyalty-tabs.ts';
import { dashboard, DELIVERY_RETRY, deliveries, privacy, webhooks } from './staff-operations-tabs.ts';
import {
  parkHours,
  parkLocations,
  parkNotices,
  passCustomizationCategories,
  passCustomizations,
  testPasses,
  walletExceptions,
  walletItemExclusions,
} from './staff-pass-tabs.ts';
import {
  ADMIN_AREA,
  isResourceTab,
  OPTION_LISTS,
  optionListPermission,
  tabPermissions,
  type OptionSource,
  type PermissionDeclaration,
  type ResourceDeclaration,
  type TabDeclaration,
} from './staff-tabs.ts';
import { auditLog, permissions, sessions, teamMembers } from './staff-team-tabs.ts';
import { visitBlockouts, visitProducts, visitWindows } from './staff-visit-tabs.ts';
import { WRISTBAND_DEACTIVATE, wristbandBindings, wristbandMerchPackIds } from './staff-wristband-tabs.ts';

/** A group of the back office's navigation and its tabs, in the order shown. */
export interface NavigationGroup {
  title: 'Overview' | 'Passes' | 'Wristbands' | 'Reservations' | 'Loyalty' | 'Team' | 'Operations';
  tabs: TabDeclaration[];
}

/**
 * The back office's navigation, declared once: every tab (a table or a page alike) in its group.
 * The client shows the groups as a side navigation on wide screens and a menu on phones, each
 * tab at /admin/<key>; a member sees the tabs their permissions show, and a group with none
 * is left out.
 */
export const navigation: NavigationGroup[] = [
  { title: 'Overview', tabs: [dashboard] },
  {
    title: 'Passes',
    tabs: [
      passCustomizations,
      passCustomizationCategories,
      testPasses,
      walletExceptions,
      walletItemExclusions,
      parkHours,
      parkLocations,
      parkNotices,
    ],
  },
  { title: 'Wristbands', tabs: [wristbandMerchPackIds, wristbandBindings] },
  { title: 'Reservations', tabs: [visitWindows, visitProducts, visitBlockouts] },
  { title: 'Loyalty', tabs: [loyalty, loyaltyCampaigns, loyaltyRewards, loyaltyTiers] },
  { title: 'Team', tabs: [teamMembers, permissions, sessions, auditLog] },
  { title: 'Operations', tabs: [deliveries, privacy, webhooks] },
];

/** Every tab, in the navigation's order. */
export const tabs: TabDeclaration[] = navigation.flatMap((group) => group.tabs);

/** The table tabs: one route set each on the server. */
export const resources: ResourceDeclaration[] = tabs.filter(isResourceTab);

/** Every permission a fresh install seeds, each naming its API and method. */
export function seededPermissions(): PermissionDeclaration[] {
  const options = (Object.keys(OPTION_LISTS) as OptionSource[]).map(optionListPermission);
  const pages = tabs.filter((tab) => !isResourceTab(tab));
  return [
    ...resources.flatMap(tabPermissions),
    ADMIN_AREA,
    ...options,
    DELIVERY_RETRY,
    WRISTBAND_DEACTIVATE,
    ...pages.flatMap(tabPermissions),
  ];
}

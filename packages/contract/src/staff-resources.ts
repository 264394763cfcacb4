// The back office tabs, each declared once. The server builds its routes, validation,
// permission checks, paging, search and audit entries from these declarations; the client
// builds its tab list, tables and modals. Field names are the API's (what the tab's calls send
// and answer); `column` names the Drizzle column of `table` (packages/db/src/schema.ts) that
// holds the value.
import { z } from 'zod';
import { DELIVERY_STATE_LABELS, DELIVERY_STATES, FAILED_DELIVERY_STATES, type DeliveryState } from './deliveries.ts';

/** Modal field types: one input component each. */
export type FieldType = 'checkbox' | 'color' | 'number' | 'datetime' | 'password' | 'select' | 'textarea' | 'text';

/** Table cell types: how a list shows a value. */
export type CellType = 'boolean' | 'color' | 'currency' | 'datetime' | 'select' | 'longText' | 'text';

/** The option lists of select fields: one API each, read by server, seed and client. */
export const OPTION_LISTS = {
  passCustomizations: { api: '/api/admin/pass-customizations/', permissionName: 'Pass Customization Options' },
  teamMembers: { api: '/api/team-member/', permissionName: 'Team Member Options' },
  loyaltyTiers: { api: '/api/admin/loyalty-tier-options/', permissionName: 'Loyalty Tier Options' },
} as const;

/** Where a select's options come from: a key of OPTION_LISTS. */
export type OptionSource = keyof typeof OPTION_LISTS;

export interface FieldDeclaration {
  /** The API field name, e.g. passCustomizationName. */
  name: string;
  label: string;
  type: FieldType;
  /** The column of the resource's table that holds it (a key of the Drizzle table). */
  column: string;
  required?: boolean;
  /** Settable when creating only; shown read-only when editing. */
  createOnly?: boolean;
  /** Never settable (set by the server); shown in the table and read-only in the modal. */
  readOnly?: boolean;
  /** Never returned (a password); settable, labelled for change. */
  writeOnly?: boolean;
  /** Not settable when creating (e.g. teamMemberActive: a new member starts active). */
  notOnCreate?: boolean;
  /** Required when creating only (e.g. teamMemberPassword: blank on edit keeps the old one). */
  requiredOnCreate?: boolean;
  /** Text that must also match a pattern: 'email' (the contract's EMAIL_PATTERN). */
  format?: 'email';
  /** Table cell; defaults from the field type. */
  cell?: CellType;
  /** Long text cells are cut at this many characters with an ellipsis. */
  maxLength?: number;
  /** For select fields. */
  options?: OptionSource;
  /** Text and textarea: the longest value accepted. */
  max?: number;
  /** Numbers: the smallest and largest accepted. */
  min?: number;
  maxValue?: number;
  /** Numbers: digits accepted after the decimal point (none: whole numbers). */
  decimals?: number;
}

export interface ResourceDeclaration {
  /** URL-safe key: the client's route segment, cache key and audit resource name. */
  key: string;
  /** The tab label, also the prefix of its permissions (`<title> List` ...). */
  title: string;
  /** The tab's API path, with its trailing slash. */
  api: string;
  /** The id field (API name); its column is the table's primary key. */
  idField: string;
  idColumn: string;
  /** The Drizzle table (a key of packages/db/src/schema.ts). */
  table: string;
  fields: FieldDeclaration[];
  /** The Session tab cannot create or delete. Read-only tabs do neither nor update. */
  operations: { create: boolean; update: boolean; delete: boolean };
  /** Fields matched by the search box (case-insensitive substring). */
  searchFields: string[];
  /** The list's default order. */
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  /** Its rows shape what passes show: every write re-publishes every saved pass (a job). */
  republishesPasses?: boolean;
  /** Its rows shape what every member card shows (the tiers): every write re-publishes every saved member card (a job). */
  republishesMemberCards?: boolean;
  /** The id column's type when it is not a GUID. */
  idType?: 'integer';
  /** At least one of these fields must hold a value (create, and after every update). */
  requireOneOf?: string[];
  /**
   * The list shows the rows whose field holds one of the chosen option's values (all rows
   * for an option with none); the first option is the default (`?filter=<value>`).
   */
  filter?: { field: string; label: string; options: { value: string; label: string; values: string[] }[] };
  /** A page of its own around the list (the client maps the name to its component). */
  page?: StaffPageName;
  /** Only administrators (level 100) list and change it; others list at 1 and change at 10. */
  adminOnly?: boolean;
}

/** The staff pages a tab may name; the client maps each name to its component. */
export type StaffPageName = 'dashboard' | 'deliveries' | 'wristbands' | 'loyalty' | 'privacy' | 'webhooks';

/**
 * A tab that is a page of its own with no table behind it (Loyalty; a dashboard would be
 * another). It names its page, the permission that shows it, and every permission its calls
 * check (seeded with the tables' ones).
 */
export interface PageDeclaration {
  /** URL-safe key: the client's route segment (/admin/<key>). */
  key: string;
  title: string;
  page: StaffPageName;
  /** A member holding it sees the tab. */
  permission: PermissionDeclaration;
  permissions: PermissionDeclaration[];
}

/** A tab of the admin area: a table built from its declaration (a resource) or a page. */
export type TabDeclaration = ResourceDeclaration | PageDeclaration;

export const isResourceTab = (tab: TabDeclaration): tab is ResourceDeclaration => 'fields' in tab;

export type Operation = 'List' | 'Create' | 'Update' | 'Delete';

/** The message of a tab's requireOneOf rule: "Merch Item ID or Merch Pack ID is required". */
export function requireOneOfMessage(tab: Pick<ResourceDeclaration, 'fields' | 'requireOneOf'>): string {
  const labels = (tab.requireOneOf ?? []).map((name) => tab.fields.find((f) => f.name === name)?.label ?? name);
  return `${labels.join(' or ')} is required`;
}

/** A tab's permission names: `<Tab> List`, `<Tab> Create`, `<Tab> Update`, `<Tab> Delete`. */
export const permissionName = (resource: Pick<ResourceDeclaration, 'title'>, operation: Operation) => `${resource.title} ${operation}`;

export const ADMIN_PERMISSION = '_Admin';

export type StaffMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A permission as a fresh install seeds it. Its name is the one key: the server guard of a
 * route is given the declaration (and checks the stored row's API and method, which staff may
 * edit), the seed inserts it, the client shows what the member holds by its name.
 */
export interface PermissionDeclaration {
  name: string;
  api: string;
  method: StaffMethod;
  minimumAccessLevel: number;
}

const METHOD: Record<Operation, StaffMethod> = { List: 'GET', Create: 'POST', Update: 'PUT', Delete: 'DELETE' };

/** A tab's permission for one operation (`Team List`: GET /api/admin/team-member/). */
export function tabPermission(tab: ResourceDeclaration, operation: Operation): PermissionDeclaration {
  const level = tab.adminOnly ? 100 : operation === 'List' ? 1 : 10;
  return { name: permissionName(tab, operation), api: tab.api, method: METHOD[operation], minimumAccessLevel: level };
}

/** The permission that shows a tab: a table's `<Tab> List`, a page's own. */
export const tabShownBy = (tab: TabDeclaration): PermissionDeclaration =>
  isResourceTab(tab) ? tabPermission(tab, 'List') : tab.permission;

/** Every permission a tab's calls check: a table's operations, a page's own list. */
export function tabPermissions(tab: TabDeclaration): PermissionDeclaration[] {
  if (!isResourceTab(tab)) return tab.permissions;
  return (['List', 'Create', 'Update', 'Delete'] as const)
    .filter((op) => op === 'List' || tab.operations[op.toLowerCase() as keyof ResourceDeclaration['operations']])
    .map((op) => tabPermission(tab, op));
}

/** A table tab's CSV export (its `<Tab> List` permission): every row its list shows, with the list's search, filter and sort. */
export const exportApi = (tab: Pick<ResourceDeclaration, 'api'>) => `${tab.api}export`;

/** The admin area itself (the navbar's Admin link). */
export const ADMIN_AREA: PermissionDeclaration = { name: ADMIN_PERMISSION, api: '/admin', method: 'GET', minimumAccessLevel: 1 };

/** Reading a select's option list. */
export const optionListPermission = (source: OptionSource): PermissionDeclaration => ({
  name: OPTION_LISTS[source].permissionName,
  api: OPTION_LISTS[source].api,
  method: 'GET',
  minimumAccessLevel: 1,
});

const all = { create: true, update: true, delete: true };

export const passCustomizations: ResourceDeclaration = {
  key: 'pass-customizations',
  republishesPasses: true,
  title: 'Pass Customizations',
  api: '/api/admin/pass-customization/',
  idField: 'passCustomizationGUID',
  idColumn: 'passCustomizationGuid',
  table: 'passCustomizations',
  operations: all,
  searchFields: ['passCustomizationName', 'passCustomizationInstructions'],
  defaultSort: { field: 'passCustomizationName', direction: 'asc' },
  fields: [
    { name: 'passCustomizationName', label: 'Name', type: 'text', column: 'name', required: true, createOnly: true, max: 100 },
    { name: 'passCustomizationBackgroundColor', label: 'Background Color', type: 'color', column: 'backgroundColor', required: true },
    { name: 'passCustomizationColor', label: 'Color', type: 'color', column: 'color', required: true },
    {
      name: 'passCustomizationInstructions',
      label: 'Instructions',
      type: 'textarea',
      column: 'instructions',
      required: true,
      cell: 'longText',
      maxLength: 60,
      max: 4000,
    },
    {
      name: 'passCustomizationGoogleInstructions',
      label: 'Google Instructions',
      type: 'textarea',
      column: 'googleInstructions',
      cell: 'longText',
      maxLength: 60,
      max: 4000,
    },
    {
      name: 'passCustomizationGoogleURI',
      label: 'Google URI',
      type: 'text',
      column: 'googleUri',
      cell: 'longText',
      maxLength: 40,
      max: 2000,
    },
    { name: 'passCustomizationHideBarcode', label: 'Hide Barcode', type: 'checkbox', column: 'hideBarcode' },
  ],
};

export const passCustomizationCategories: ResourceDeclaration = {
  key: 'pass-customization-categories',
  republishesPasses: true,
  title: 'Pass Customization Categories',
  api: '/api/admin/pass-customization-categories/',
  idField: 'passCustomizationTTpassCustomizationsGUID',
  idColumn: 'guid',
  table: 'passCustomizationCategories',
  operations: all,
  searchFields: [
    'passCustomizationTTcategoryID',
    'passCustomizationTTpackID',
    'passCustomizationTTbarcode',
    'passCustomizationTTcustomizationName',
  ],
  defaultSort: { field: 'passCustomizationTTcustomizationName', direction: 'asc' },
  fields: [
    { name: 'passCustomizationTTcategoryID', label: 'Category ID', type: 'text', column: 'categoryId', max: 100 },
    { name: 'passCustomizationTTpackID', label: 'Pack ID', type: 'text', column: 'packId', max: 100 },
    { name: 'passCustomizationTTbarcode', label: 'Barcode', type: 'text', column: 'barcode', max: 18 },
    {
      name: 'passCustomizationTTcustomizationName',
      label: 'Customization',
      type: 'select',
      column: 'customizationName',
      required: true,
      options: 'passCustomizations',
    },
    { name: 'passCustomizationTTactive', label: 'Active', type: 'checkbox', column: 'active' },
  ],
};

export const testPasses: ResourceDeclaration = {
  key: 'test-passes',
  title: 'Test Passes',
  api: '/api/admin/test-passes/',
  idField: 'testPassesGUID',
  idColumn: 'guid',
  table: 'testPasses',
  operations: all,
  searchFields: ['testPassesBarcode', 'testPassesDescription'],
  defaultSort: { field: 'testPassesBarcode', direction: 'asc' },
  fields: [
    { name: 'testPassesBarcode', label: 'Barcode', type: 'text', column: 'barcode', required: true, max: 18 },
    { name: 'testPassesDescription', label: 'Description', type: 'text', column: 'description', max: 200 },
    { name: 'testPassesData', label: 'Data', type: 'textarea', column: 'data', cell: 'longText', maxLength: 60, max: 20000 },
  ],
};

export const walletExceptions: ResourceDeclaration = {
  key: 'wallet-exceptions',
  republishesPasses: true,
  title: 'Wallet Exceptions',
  api: '/api/admin/wallet-exception/',
  idField: 'walletExceptionGUID',
  idColumn: 'guid',
  table: 'walletExceptions',
  operations: all,
  searchFields: ['walletExceptionOrderNumber'],
  defaultSort: { field: 'walletExceptionOrderNumber', direction: 'asc' },
  fields: [
    { name: 'walletExceptionOrderNumber', label: 'Order Number', type: 'text', column: 'orderNumber', required: true, max: 20 },
    { name: 'walletExceptionSkipRegistration', label: 'Skip Registration', type: 'checkbox', column: 'skipRegistration' },
    { name: 'walletExceptionSkipImage', label: 'Skip Image', type: 'checkbox', column: 'skipImage' },
  ],
};

export const walletItemExclusions: ResourceDeclaration = {
  key: 'wallet-item-exclusions',
  republishesPasses: true,
  title: 'Wallet Item Exclusions',
  api: '/api/admin/wallet-item-exclusion/',
  idField: 'walletItemExclusionsGUID',
  idColumn: 'guid',
  table: 'walletItemExclusions',
  operations: all,
  searchFields: ['walletItemExclusionMerchItemID', 'walletItemExclusionMerchPackID', 'walletItemExclusionCustomError'],
  // An exclusion that names no item and no pack excludes nothing.
  requireOneOf: ['walletItemExclusionMerchItemID', 'walletItemExclusionMerchPackID'],
  defaultSort: { field: 'walletItemExclusionCreatedTimestamp', direction: 'desc' },
  fields: [
    { name: 'walletItemExclusionMerchItemID', label: 'Merch Item ID', type: 'text', column: 'merchItemId', max: 100 },
    { name: 'walletItemExclusionMerchPackID', label: 'Merch Pack ID', type: 'text', column: 'merchPackId', max: 100 },
    { name: 'walletItemExclusionCreatedTimestamp', label: 'Created', type: 'datetime', column: 'createdAt', readOnly: true },
    {
      name: 'walletItemExclusionCustomError',
      label: 'Custom Error',
      type: 'textarea',
      column: 'customError',
      cell: 'longText',
      maxLength: 60,
      max: 2000,
    },
    { name: 'walletItemExclusionValidFrom', label: 'Valid From', type: 'datetime', column: 'validFrom' },
    { name: 'walletItemExclusionValidTo', label: 'Valid To', type: 'datetime', column: 'validTo' },
    { name: 'walletItemExclusionExcludeNFC', label: 'Exclude NFC', type: 'checkbox', column: 'excludeNfc' },
    { name: 'walletItemExclusionActive', label: 'Active', type: 'checkbox', column: 'active' },
  ],
};

export const wristbandMerchPackIds: ResourceDeclaration = {
  key: 'wristband-merch-pack-ids',
  republishesPasses: true,
  title: 'Wristband Merch Pack IDs',
  api: '/api/admin/wristband-merch-pack-ids/',
  idField: 'wristbandMerchPackIDsMerchItemGUID',
  idColumn: 'guid',
  table: 'wristbandMerchPackIds',
  operations: all,
  searchFields: ['wristbandMerchPackIDsMerchItemID'],
  defaultSort: { field: 'wristbandMerchPackIDsCreated', direction: 'desc' },
  fields: [
    // Numeric, kept as text like the ticketing feed's pack ids it is matched with.
    {
      name: 'wristbandMerchPackIDsMerchItemID',
      label: 'Merch Item ID',
      type: 'number',
      column: 'merchItemId',
      required: true,
      min: 0,
      maxValue: 999_999_999_999,
    },
    { name: 'wristbandMerchPackIDsCreated', label: 'Created', type: 'datetime', column: 'createdAt', readOnly: true },
    { name: 'wristbandMerchPackIDsActive', label: 'Active', type: 'checkbox', column: 'active' },
    { name: 'wristbandMerchPackIDsValidFrom', label: 'Valid From', type: 'datetime', column: 'validFrom' },
    { name: 'wristbandMerchPackIDsValidTo', label: 'Valid To', type: 'datetime', column: 'validTo' },
  ],
};

export const teamMembers: ResourceDeclaration = {
  key: 'team',
  adminOnly: true,
  title: 'Team',
  api: '/api/admin/team-member/',
  idField: 'teamMemberGUID',
  idColumn: 'guid',
  table: 'teamMembers',
  operations: all,
  searchFields: ['teamMemberFirstName', 'teamMemberLastName', 'teamMemberUsername', 'teamMemberInternalID'],
  defaultSort: { field: 'teamMemberLastName', direction: 'asc' },
  fields: [
    { name: 'teamMemberFirstName', label: 'First Name', type: 'text', column: 'firstName', required: true, max: 100 },
    { name: 'teamMemberLastName', label: 'Last Name', type: 'text', column: 'lastName', required: true, max: 100 },
    { name: 'teamMemberInternalID', label: 'Internal ID', type: 'text', column: 'internalId', required: true, max: 100 },
    { name: 'teamMemberUsername', label: 'Email', type: 'text', column: 'username', required: true, max: 254, format: 'email' },
    // Stored as an argon2id hash in passwordHash; at least 12 characters.
    {
      name: 'teamMemberPassword',
      label: 'Change Password',
      type: 'password',
      column: 'passwordHash',
      writeOnly: true,
      requiredOnCreate: true,
    },
    {
      name: 'teamMemberDescription',
      label: 'Description',
      type: 'textarea',
      column: 'description',
      cell: 'longText',
      maxLength: 60,
      max: 2000,
    },
    { name: 'teamMemberAccessLevel', label: 'Access Level', type: 'number', column: 'accessLevel', required: true, min: 0, maxValue: 1000 },
    { name: 'teamMemberActive', label: 'Active', type: 'checkbox', column: 'active', notOnCreate: true },
  ],
};

export const permissions: ResourceDeclaration = {
  key: 'permissions',
  adminOnly: true,
  title: 'Permissions',
  api: '/api/admin/permission/',
  idField: 'permissionGUID',
  idColumn: 'guid',
  table: 'permissions',
  operations: all,
  searchFields: ['permissionName', 'permissionAPI'],
  defaultSort: { field: 'permissionName', direction: 'asc' },
  fields: [
    { name: 'permissionName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 },
    { name: 'permissionAPI', label: 'API', type: 'text', column: 'api', max: 200 },
    { name: 'permissionMethod', label: 'Method', type: 'text', column: 'method', max: 10 },
    {
      name: 'permissionMinimumAccessLevel',
      label: 'Minimum Access Level',
      type: 'number',
      column: 'minimumAccessLevel',
      required: true,
      min: 0,
      maxValue: 1000,
    },
    { name: 'permissionActive', label: 'Active', type: 'checkbox', column: 'active' },
  ],
};

export const sessions: ResourceDeclaration = {
  key: 'session',
  adminOnly: true,
  title: 'Session',
  api: '/api/admin/session/',
  idField: 'sessionGUID',
  idColumn: 'guid',
  table: 'staffSessions',
  operations: { create: false, update: true, delete: false },
  searchFields: [],
  defaultSort: { field: 'sessionStartTimestamp', direction: 'desc' },
  fields: [
    { name: 'teamMemberGUID', label: 'Team Member', type: 'select', column: 'teamMemberGuid', options: 'teamMembers', readOnly: true },
    { name: 'sessionStartTimestamp', label: 'Start', type: 'datetime', column: 'startTimestamp', readOnly: true },
    { name: 'sessionEndTimestamp', label: 'End', type: 'datetime', column: 'endTimestamp', required: true },
    { name: 'sessionActive', label: 'Active', type: 'checkbox', column: 'active' },
    // A fingerprint of the token's hash, never the token: only the hash is stored.
    {
      name: 'sessionAccessToken',
      label: 'Access Token',
      type: 'text',
      column: 'accessTokenHash',
      readOnly: true,
      cell: 'longText',
      maxLength: 50,
    },
  ],
};

export const auditLog: ResourceDeclaration = {
  key: 'audit-log',
  adminOnly: true,
  title: 'Audit Log',
  api: '/api/admin/audit-log/',
  idField: 'auditLogID',
  idColumn: 'id',
  idType: 'integer',
  table: 'auditLog',
  operations: { create: false, update: false, delete: false },
  searchFields: ['auditLogUsername', 'auditLogAction', 'auditLogResource', 'auditLogRecordID'],
  defaultSort: { field: 'auditLogAt', direction: 'desc' },
  fields: [
    { name: 'auditLogAt', label: 'When', type: 'datetime', column: 'at', readOnly: true },
    { name: 'auditLogUsername', label: 'Who', type: 'text', column: 'username', readOnly: true },
    { name: 'auditLogAction', label: 'Action', type: 'text', column: 'action', readOnly: true },
    { name: 'auditLogResource', label: 'Tab', type: 'text', column: 'resource', readOnly: true },
    { name: 'auditLogRecordID', label: 'Record', type: 'text', column: 'recordId', readOnly: true },
    { name: 'auditLogBefore', label: 'Before', type: 'textarea', column: 'before', readOnly: true, cell: 'longText', maxLength: 80 },
    { name: 'auditLogAfter', label: 'After', type: 'textarea', column: 'after', readOnly: true, cell: 'longText', maxLength: 80 },
  ],
};

/**
 * Deliveries to Apple, Google and mail (the outbound calls are jobs): read-only, the failed
 * and dead ones by default and every state by the filter, with counts by state, the Apple
 * pushes' proof of delivery and a Retry action on its own page.
 */
export const deliveries: ResourceDeclaration = {
  key: 'deliveries',
  adminOnly: true,
  title: 'Deliveries',
  api: '/api/admin/deliveries/',
  idField: 'deliveryGUID',
  idColumn: 'id',
  table: 'deliveries',
  operations: { create: false, update: false, delete: false },
  searchFields: ['deliveryBarcode', 'deliveryRecipient', 'deliveryLastError'],
  defaultSort: { field: 'deliveryUpdated', direction: 'desc' },
  filter: {
    field: 'deliveryState',
    label: 'Show',
    options: [
      { value: 'failed', label: 'Retrying or dead', values: FAILED_DELIVERY_STATES },
      { value: 'all', label: 'Every state', values: [] },
      ...DELIVERY_STATES.map((state) => ({ value: state, label: DELIVERY_STATE_LABELS[state], values: [state] })),
    ],
  },
  page: 'deliveries',
  fields: [
    { name: 'deliveryUpdated', label: 'Last Try', type: 'datetime', column: 'updatedAt', readOnly: true },
    { name: 'deliveryTarget', label: 'Target', type: 'text', column: 'target', readOnly: true },
    { name: 'deliveryRecipient', label: 'To', type: 'text', column: 'recipient', readOnly: true },
    { name: 'deliveryBarcode', label: 'Ticket', type: 'text', column: 'barcode', readOnly: true },
    { name: 'deliveryState', label: 'State', type: 'text', column: 'state', readOnly: true },
    { name: 'deliveryAttempts', label: 'Attempts', type: 'number', column: 'attempts', readOnly: true },
    { name: 'deliverySent', label: 'Sent', type: 'datetime', column: 'sentAt', readOnly: true },
    { name: 'deliveryFetched', label: 'Fetched', type: 'datetime', column: 'fetchedAt', readOnly: true },
    { name: 'deliveryObjectVersion', label: 'Google Version', type: 'text', column: 'objectVersion', readOnly: true },
    {
      name: 'deliveryLastError',
      label: 'Last Error',
      type: 'textarea',
      column: 'lastError',
      readOnly: true,
      cell: 'longText',
      maxLength: 80,
    },
  ],
};

/** Retrying a delivery: its own permission (`Deliveries Retry`), audited. */
export const DELIVERY_RETRY_API = '/api/admin/deliveries/retry/';
export const DELIVERY_RETRY_PERMISSION = 'Deliveries Retry';
export const DELIVERY_RETRY: PermissionDeclaration = {
  name: DELIVERY_RETRY_PERMISSION,
  api: DELIVERY_RETRY_API,
  method: 'POST',
  minimumAccessLevel: 100,
};
/** GET {deliveries api}counts: how many deliveries are in each state. */
export const deliveryCounts = z.object(
  Object.fromEntries(DELIVERY_STATES.map((state) => [state, z.number().int()])) as Record<DeliveryState, z.ZodNumber>,
);

/**
 * GET {deliveries api}pushes: the proof of delivery of Apple pushes over the last 24 hours
 * (sent: APNs accepted; fetched: the device then fetched the pass; not fetched within an
 * hour; the push-to-fetch latency), and the registered devices that stopped fetching.
 */
export const applePushReport = z.object({
  since: z.iso.datetime(),
  sent: z.number().int(),
  fetched: z.number().int(),
  notFetchedAfterHour: z.number().int(),
  p50Seconds: z.number().nullable(),
  p95Seconds: z.number().nullable(),
  silentDevices: z.array(
    z.object({
      recipient: z.string(),
      barcode: z.string().nullable(),
      unfetchedPushes: z.number().int(),
      lastPushAt: z.iso.datetime(),
    }),
  ),
});
export type ApplePushReport = z.infer<typeof applePushReport>;

/** GET {deliveries api}certificate: the Apple signer certificate's expiry, with a warning from APPLE_CERT_WARNING_DAYS before it. */
export const appleCertificateStatus = z.object({
  notAfter: z.iso.datetime(),
  /** Whole days left (negative once expired). */
  daysLeft: z.number().int(),
  /** The development chain is in use (no Apple-issued certificate configured). */
  development: z.boolean(),
  warning: z.boolean(),
});
export type AppleCertificateStatus = z.infer<typeof appleCertificateStatus>;

/**
 * Wristbands guests bound to their tickets (POST /api/wristband/activate/): read-only, searchable
 * by band or ticket, with a Deactivate action for a lost band on its own page.
 */
export const wristbandBindings: ResourceDeclaration = {
  key: 'wristbands',
  title: 'Wristbands',
  api: '/api/admin/wristbands/',
  idField: 'wristbandBindingGUID',
  idColumn: 'id',
  table: 'wristbandBindings',
  operations: { create: false, update: false, delete: false },
  searchFields: ['wristbandBarcode', 'wristbandTicketBarcode'],
  defaultSort: { field: 'wristbandBoundAt', direction: 'desc' },
  page: 'wristbands',
  fields: [
    { name: 'wristbandBarcode', label: 'Band', type: 'text', column: 'wristbandBarcode', readOnly: true },
    { name: 'wristbandTicketBarcode', label: 'Ticket Barcode', type: 'text', column: 'barcode', readOnly: true },
    { name: 'wristbandOrderID', label: 'Order', type: 'text', column: 'orderId', readOnly: true },
    { name: 'wristbandBoundAt', label: 'Bound At', type: 'datetime', column: 'activatedAt', readOnly: true },
    { name: 'wristbandDeactivatedAt', label: 'Deactivated At', type: 'datetime', column: 'deactivatedAt', readOnly: true },
    { name: 'wristbandDeactivatedBy', label: 'Deactivated By', type: 'text', column: 'deactivatedBy', readOnly: true },
  ],
};

/**
 * Deactivating a lost band: its own permission (`Wristbands Deactivate`), audited. Level 10,
 * like the changes of the configuration tabs: guest services supervisors replace lost bands,
 * and a deactivation only lets the ticket take a new band (the lost one never binds again).
 */
export const WRISTBAND_DEACTIVATE_API = '/api/admin/wristbands/deactivate/';
export const WRISTBAND_DEACTIVATE_PERMISSION = 'Wristbands Deactivate';
export const WRISTBAND_DEACTIVATE: PermissionDeclaration = {
  name: WRISTBAND_DEACTIVATE_PERMISSION,
  api: WRISTBAND_DEACTIVATE_API,
  method: 'POST',
  minimumAccessLevel: 10,
};

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
  operations: all,
  searchFields: ['loyaltyTierName'],
  defaultSort: { field: 'loyaltyTierPointsToReach', direction: 'asc' },
  fields: [
    { name: 'loyaltyTierName', label: 'Name', type: 'text', column: 'name', required: true, max: 50 },
    {
      name: 'loyaltyTierPointsToReach',
      label: 'Points Earned in 365 Days to Reach',
      type: 'number',
      column: 'pointsToReach',
      required: true,
      min: 1,
      maxValue: 100_000_000,
    },
    { name: 'loyaltyTierActive', label: 'Active', type: 'checkbox', column: 'active' },
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
  operations: all,
  searchFields: ['loyaltyRewardName', 'loyaltyRewardDescription'],
  defaultSort: { field: 'loyaltyRewardPointsCost', direction: 'asc' },
  fields: [
    { name: 'loyaltyRewardName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 },
    {
      name: 'loyaltyRewardDescription',
      label: 'Description',
      type: 'textarea',
      column: 'description',
      cell: 'longText',
      maxLength: 60,
      max: 2000,
    },
    {
      name: 'loyaltyRewardPointsCost',
      label: 'Points Cost',
      type: 'number',
      column: 'pointsCost',
      required: true,
      min: 1,
      maxValue: 100_000_000,
    },
    { name: 'loyaltyRewardActive', label: 'Active', type: 'checkbox', column: 'active' },
    { name: 'loyaltyRewardValidFrom', label: 'Valid From', type: 'datetime', column: 'validFrom' },
    { name: 'loyaltyRewardValidTo', label: 'Valid To', type: 'datetime', column: 'validTo' },
    { name: 'loyaltyRewardMinimumTier', label: 'Minimum Tier', type: 'select', column: 'minimumTier', options: 'loyaltyTiers' },
    {
      name: 'loyaltyRewardLimitPerMember',
      label: 'Limit per Member',
      type: 'number',
      column: 'limitPerMember',
      min: 1,
      maxValue: 1_000_000,
    },
  ],
};

/** A tab's row as the client reads it (the server's per-tab schema is stricter: resource-schemas.ts). */
export const staffRow = z.record(z.string(), z.unknown());
/** A select's option list (OPTION_LISTS). */
export const optionList = z.array(z.object({ value: z.string(), label: z.string() }));

/**
 * The Loyalty tab's permissions, each seeded at level 100: managing accounts (the admin loyalty
 * calls, and the tab itself), removing an account, removing an order, redeeming a reward
 * for a member or reversing a redemption (points spent like money at a till), and exporting
 * the members and the ledger.
 */
export const LOYALTY = {
  manage: { name: 'Loyalty Manage', api: '/api/admin/loyalty/', method: 'POST', minimumAccessLevel: 100 },
  removeAccount: { name: 'Loyalty Remove Account', api: '/api/admin/loyalty/', method: 'DELETE', minimumAccessLevel: 100 },
  removeOrder: { name: 'Loyalty Remove Order', api: '/api/admin/loyalty/order/', method: 'DELETE', minimumAccessLevel: 100 },
  redeem: { name: 'Loyalty Redeem', api: '/api/admin/loyalty/redemptions/', method: 'POST', minimumAccessLevel: 100 },
  /** Downloading the members (with balance and tier) and the ledger between two dates as CSV. */
  export: { name: 'Loyalty Export', api: '/api/admin/loyalty/export/', method: 'GET', minimumAccessLevel: 100 },
} as const satisfies Record<string, PermissionDeclaration>;

/** The Loyalty tab: a page of its own (find, create and manage a member's account). */
export const loyalty: PageDeclaration = {
  key: 'loyalty',
  title: 'Loyalty',
  page: 'loyalty',
  permission: LOYALTY.manage,
  permissions: [LOYALTY.removeAccount, LOYALTY.removeOrder, LOYALTY.redeem, LOYALTY.manage, LOYALTY.export],
};
export const LOYALTY_PERMISSIONS = loyalty.permissions.map((p) => p.name);

/**
 * The Privacy tab's permissions, each seeded at level 100: finding and exporting everything held
 * about a person (the tab itself), and erasing it.
 */
export const PRIVACY = {
  export: { name: 'Privacy Export', api: '/api/admin/privacy/export', method: 'POST', minimumAccessLevel: 100 },
  erase: { name: 'Privacy Erase', api: '/api/admin/privacy/erase', method: 'POST', minimumAccessLevel: 100 },
  /** Lifts the lock an erasure left on an activated season pass (a new photo or name may then go on it). */
  liftPassLock: { name: 'Privacy Lift Pass Lock', api: '/api/admin/privacy/pass-lock/lift', method: 'POST', minimumAccessLevel: 100 },
} as const satisfies Record<string, PermissionDeclaration>;

/** The Privacy tab: a page of its own (find a person by email, phone or barcode; download what is held). */
export const privacy: PageDeclaration = {
  key: 'privacy',
  title: 'Privacy',
  page: 'privacy',
  permission: PRIVACY.export,
  permissions: [PRIVACY.export, PRIVACY.erase, PRIVACY.liftPassLock],
};

/** The Webhooks tab's permission, seeded at level 100: managing the endpoints events are sent to (and their messages). */
export const WEBHOOKS_MANAGE: PermissionDeclaration = {
  name: 'Webhooks Manage',
  api: '/api/admin/webhooks/',
  method: 'POST',
  minimumAccessLevel: 100,
};

/** The Webhooks tab: a page of its own (the endpoints, their secrets, their recent messages). */
export const webhooks: PageDeclaration = {
  key: 'webhooks',
  title: 'Webhooks',
  page: 'webhooks',
  permission: WEBHOOKS_MANAGE,
  permissions: [WEBHOOKS_MANAGE],
};

/**
 * The park's operating days (one row each: when it opens and closes). A dated admission's
 * pass comes to the lock screen during its visit day's hours, a season pass's on the next
 * operating days; a change republishes the saved passes.
 */
export const parkHours: ResourceDeclaration = {
  key: 'park-hours',
  republishesPasses: true,
  title: 'Park Hours',
  api: '/api/admin/park-hours/',
  idField: 'parkHoursGUID',
  idColumn: 'guid',
  table: 'parkHours',
  operations: all,
  searchFields: [],
  defaultSort: { field: 'parkHoursOpens', direction: 'asc' },
  fields: [
    { name: 'parkHoursOpens', label: 'Opens', type: 'datetime', column: 'opensAt', required: true },
    { name: 'parkHoursCloses', label: 'Closes', type: 'datetime', column: 'closesAt', required: true },
  ],
};

/** Most park locations: Apple Wallet and Google Wallet use ten per pass. */
export const MAX_PARK_LOCATIONS = 10;

/**
 * Where at the park passes come to the lock screen (the main gate, the pier entrance): at
 * most ten; Google Wallet's classes carry them as merchant locations. A change republishes
 * the saved passes and the classes.
 */
export const parkLocations: ResourceDeclaration = {
  key: 'park-locations',
  republishesPasses: true,
  title: 'Park Locations',
  api: '/api/admin/park-locations/',
  idField: 'parkLocationGUID',
  idColumn: 'guid',
  table: 'parkLocations',
  operations: all,
  searchFields: ['parkLocationName', 'parkLocationRelevantText'],
  defaultSort: { field: 'parkLocationName', direction: 'asc' },
  fields: [
    { name: 'parkLocationName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 },
    {
      name: 'parkLocationLatitude',
      label: 'Latitude',
      type: 'number',
      column: 'latitude',
      required: true,
      min: -90,
      maxValue: 90,
      decimals: 6,
    },
    {
      name: 'parkLocationLongitude',
      label: 'Longitude',
      type: 'number',
      column: 'longitude',
      required: true,
      min: -180,
      maxValue: 180,
      decimals: 6,
    },
    { name: 'parkLocationRelevantText', label: 'Lock Screen Text', type: 'text', column: 'relevantText', max: 100 },
  ],
};

/** The Dashboard's permission, seeded at level 1: the club's and the passes' figures over a range of operating days. */
export const DASHBOARD_VIEW: PermissionDeclaration = {
  name: 'Dashboard View',
  api: '/api/admin/dashboard/',
  method: 'GET',
  minimumAccessLevel: 1,
};

/** The Dashboard tab: the back office's first page (claims, points, members, wallets and deliveries per day). */
export const dashboard: PageDeclaration = {
  key: 'dashboard',
  title: 'Dashboard',
  page: 'dashboard',
  permission: DASHBOARD_VIEW,
  permissions: [DASHBOARD_VIEW],
};

/** A group of the back office's navigation and its tabs, in the order shown. */
export interface NavigationGroup {
  title: 'Overview' | 'Passes' | 'Wristbands' | 'Loyalty' | 'Team' | 'Operations';
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
    tabs: [passCustomizations, passCustomizationCategories, testPasses, walletExceptions, walletItemExclusions, parkHours, parkLocations],
  },
  { title: 'Wristbands', tabs: [wristbandMerchPackIds, wristbandBindings] },
  { title: 'Loyalty', tabs: [loyalty, loyaltyRewards, loyaltyTiers] },
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

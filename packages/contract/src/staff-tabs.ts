// How a back office tab is declared: the types of a declaration, the permissions a tab's calls
// check, and the field builders the declarations share. The server builds its routes,
// validation, permission checks, paging, search and audit entries from the declarations; the
// client builds its tab list, tables and modals. Field names are the API's (what the tab's
// calls send and answer); `column` names the Drizzle column of `table`
// (packages/db/src/schema.ts) that holds the value. The tabs themselves are declared per
// family (staff-pass-tabs.ts, staff-team-tabs.ts, ...) and listed in staff-navigation.ts.
import { z } from 'zod';
import { LANGUAGE_NAMES, TRANSLATED_LANGUAGES, translatedName } from './i18n/staff-texts.ts';

/** Modal field types: one input component each. */
export type FieldType = 'checkbox' | 'color' | 'number' | 'date' | 'datetime' | 'password' | 'select' | 'textarea' | 'text';

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
  /** For select fields: the option list the server answers, or a fixed list of choices. */
  options?: OptionSource;
  choices?: { value: string; label: string }[];
  /**
   * Counted by the server when a row is read (the tab's figures hook), never stored: read-only,
   * not sortable or searchable. Its `column` is the key the hook fills in.
   */
  computed?: boolean;
  /** Text and textarea: the longest value accepted. */
  max?: number;
  /** Numbers: the smallest and largest accepted. */
  min?: number;
  maxValue?: number;
  /** Numbers: digits accepted after the decimal point (none: whole numbers). */
  decimals?: number;
  /** A translation of another field (its API name): optional; the list marks it missing where that one is written. */
  translates?: string;
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
  /** Its rows are what every pass shows (the park's hours and locations): every write sends a park-wide wave (a job). */
  parkWide?: boolean;
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

/**
 * A permission of a page's own call that only administrators hold (level 100), like
 * `Loyalty Redeem` or `Deliveries Retry`.
 */
export const adminPermission = (name: string, api: string, method: StaffMethod): PermissionDeclaration => ({
  name,
  api,
  method,
  minimumAccessLevel: 100,
});

/** A page of its own whose one permission both shows it and guards its calls (Dashboard, Webhooks). */
export const singlePermissionPage = (
  key: string,
  title: string,
  page: StaffPageName,
  permission: PermissionDeclaration,
): PageDeclaration => ({
  key,
  title,
  page,
  permission,
  permissions: [permission],
});

/** The configuration tabs create, update and delete; the read-only ones list only. */
export const ALL_OPERATIONS = { create: true, update: true, delete: true };
export const LIST_ONLY = { create: false, update: false, delete: false };

/** The field's rules beyond its name, label, type and column. */
type FieldRules = Omit<FieldDeclaration, 'name' | 'label' | 'type' | 'column'>;

/**
 * A long text: a textarea whose table cell is cut at `maxLength` characters (60 unless
 * given), accepting at most `max` characters when it is settable.
 */
export const longTextField = (name: string, label: string, column: string, rules: FieldRules = {}): FieldDeclaration => ({
  name,
  label,
  type: 'textarea',
  column,
  cell: 'longText',
  maxLength: 60,
  ...rules,
});

/** A whole number between `min` and `maxValue`. */
export const wholeNumberField = (
  name: string,
  label: string,
  column: string,
  range: { min: number; maxValue: number },
  rules: FieldRules = {},
): FieldDeclaration => ({ name, label, type: 'number', column, ...range, ...rules });

/** The row's on/off switch (column `active`), labelled Active. */
export const activeField = (name: string): FieldDeclaration => ({ name, label: 'Active', type: 'checkbox', column: 'active' });

/**
 * When a row applies: `<prefix>ValidFrom` and `<prefix>ValidTo` (columns validFrom and
 * validTo), each optional (no bound on that side).
 */
export const validityFields = (prefix: string): FieldDeclaration[] => [
  { name: `${prefix}ValidFrom`, label: 'Valid From', type: 'datetime', column: 'validFrom' },
  { name: `${prefix}ValidTo`, label: 'Valid To', type: 'datetime', column: 'validTo' },
];

/** The fields of a tab that only shows what the server wrote: each one read-only. */
export const readOnlyFields = (fields: FieldDeclaration[]): FieldDeclaration[] => fields.map((field) => ({ ...field, readOnly: true }));

/** A tab's row as the client reads it (the server's per-tab schema is stricter: resource-schemas.ts). */
export const staffRow = z.record(z.string(), z.unknown());
/** A select's option list (OPTION_LISTS). */
export const optionList = z.array(z.object({ value: z.string(), label: z.string() }));

/**
 * A guest-facing text staff write in English and, optionally, in each other language: the
 * field, then one per language (`<name>Es` in column `<column>Es`, labelled "(Spanish)"),
 * which may stay empty: guests reading it then read the English text (i18n/staff-texts.ts).
 */
export function translatedFields(field: FieldDeclaration): FieldDeclaration[] {
  return [
    field,
    ...TRANSLATED_LANGUAGES.map((language) => ({
      ...field,
      name: translatedName(field.name, language),
      label: `${field.label} (${LANGUAGE_NAMES[language]})`,
      column: translatedName(field.column, language),
      required: false,
      translates: field.name,
    })),
  ];
}

// The back-office tabs: list (paged, sorted, searched), create, update and delete of any
// declared tab, each write committed with its audit entry. What differs between tabs lives in
// the declarations and, for rules that need server code, in the tab's hooks (tab-hooks.ts).
import type { Db, Executor } from '@boardwalk/db/client';
import { requireOneOfMessage, type FieldDeclaration, type OptionSource, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import { resources } from '@boardwalk/contract/staff-navigation';
import { AppError } from '../../platform/errors.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { PARK_CHANGED, PASSES_CHANGED } from '../../guest/ticket/ticket.topics.ts';
import { LOYALTY_TIERS_CHANGED } from '../../loyalty/loyalty.topics.ts';
import { recordAudit, type AuditAction } from '../audit/audit.repo.ts';
import type { StaffActor, StaffIdentity } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Readable } from 'node:stream';
import type { CsvColumn } from '@boardwalk/contract/csv';
import { csvStream, type PageReader } from '../../platform/csv-stream.ts';
import type { ListQuery } from './resource-schemas.ts';
import { readableFields } from './resource-schemas.ts';
import { tabHooks, type TabHooks, type TabWrite } from './tab-hooks.ts';
import {
  columnKind,
  constraintViolation,
  deleteRow,
  findRow,
  inTransaction,
  insertRow,
  listCustomizationNames,
  listRows,
  listRowsAfter,
  listTeamMemberChoices,
  listTierNames,
  resolveTable,
  updateRow,
  type DbRow,
  type ListKey,
  type ResourceTable,
} from './resources.repo.ts';

/** What the generic tab routes need, built once when they register. */
export interface ResourceDeps {
  db: Db;
  changes: ChangeBus;
  /** The park's time zone (PARK_TIMEZONE): what a tab's figures count days in. */
  timeZone: string;
}

/** A declaration with its table resolved: built once at start. */
export interface Resource {
  tab: ResourceDeclaration;
  table: ResourceTable;
  hooks: TabHooks;
}

export type ApiRow = Record<string, unknown>;

/** Resolves a declaration against the schema; throws at start when it names what does not exist. */
export function prepareResource(tab: ResourceDeclaration): Resource {
  const table = resolveTable(tab);
  const names = new Set(tab.fields.map((f) => f.name));
  for (const name of [...tab.searchFields, tab.defaultSort.field]) {
    if (!names.has(name)) throw new Error(`${tab.title}: ${name} is not one of its fields`);
  }
  return { tab, table, hooks: tabHooks[tab.key] ?? {} };
}

/** Columns holding a hash (e.g. a session's accessTokenHash): shown only as a fingerprint. */
const isHashColumn = (f: FieldDeclaration) => /Hash$/.test(f.column);
const FINGERPRINT_LENGTH = 12;
/** The Session tab shows a fingerprint of the token's hash, never the token. */
export const fingerprint = (hash: string) => `${hash.slice(0, FINGERPRINT_LENGTH)}…`;

/** A stored value as the API shows it. */
function toApiValue(resource: Resource, f: FieldDeclaration, value: unknown): unknown {
  if (value === null || value === undefined) return f.type === 'checkbox' ? false : null;
  if (value instanceof Date) return value.toISOString();
  if (f.type === 'number') return Number(value);
  if (!f.computed && columnKind(resource.table, f.column) === 'json') return JSON.stringify(value);
  return value;
}

/** A stored row in API field names: write-only fields left out, hashes as fingerprints. */
export function toApiRow(resource: Resource, row: DbRow): ApiRow {
  const out: ApiRow = { [resource.tab.idField]: row[resource.tab.idColumn] };
  for (const f of readableFields(resource.tab)) {
    const value = toApiValue(resource, f, row[f.column]);
    out[f.name] = isHashColumn(f) && typeof value === 'string' ? fingerprint(value) : value;
  }
  return out;
}

/** A stored row for the audit log: API field names, no password, hash or token (not even a fingerprint). */
export function toAuditRow(resource: Resource, row: DbRow): ApiRow {
  const out: ApiRow = { [resource.tab.idField]: row[resource.tab.idColumn] };
  for (const f of readableFields(resource.tab)) {
    if (isHashColumn(f) || f.computed) continue;
    const value = row[f.column];
    out[f.name] =
      value instanceof Date
        ? value.toISOString()
        : f.type === 'number' && value !== null && value !== undefined
          ? Number(value)
          : (value ?? null);
  }
  return out;
}

const fieldByName = (tab: ResourceDeclaration, name: string) => tab.fields.find((f) => f.name === name)!;

/** Validated API values as column values (passwords hashed, numbers kept as text where the column is text). */
async function toColumns(resource: Resource, values: Record<string, unknown>): Promise<DbRow> {
  const out: DbRow = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fieldByName(resource.tab, name);
    if (f.type === 'password') out[f.column] = await hashPassword(value as string);
    else if (f.type === 'number' && value !== null && columnKind(resource.table, f.column) === 'string') out[f.column] = String(value);
    else out[f.column] = value;
  }
  return out;
}

/**
 * Equal for the purpose of "nothing changed". Datetimes compare to the second: a form's
 * date-and-time input (seconds step) sends back the stored instant without its milliseconds.
 */
function sameValue(stored: unknown, sent: unknown): boolean {
  if (stored instanceof Date && sent instanceof Date) return Math.floor(stored.getTime() / 1000) === Math.floor(sent.getTime() / 1000);
  return (stored ?? null) === (sent ?? null);
}

/** A tab's requireOneOf holds for the row as it would be after an update. */
function keepOneOf(tab: ResourceDeclaration, row: DbRow) {
  const names = tab.requireOneOf;
  if (!names || names.some((name) => row[fieldByName(tab, name).column] !== null && row[fieldByName(tab, name).column] !== undefined))
    return;
  throw validationError(fieldByName(tab, names[0]!), requireOneOfMessage(tab));
}

const validationError = (f: FieldDeclaration, message: string) =>
  new AppError('VALIDATION_FAILED', message, { fields: [{ path: f.name, message }] });
const notFound = (tab: ResourceDeclaration) => new AppError('NOT_FOUND', `This ${tab.title} row no longer exists.`);

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const tabByTable = (sqlName: string | undefined) => resources.find((r) => r.table === sqlName || snake(r.table) === sqlName);

/** What the tables no tab lists hold, as a refused delete names them. */
const HISTORY_WORDS: Record<string, string> = {
  loyalty_ledger: "members' points entries",
  loyalty_referrals: 'referrals',
  loyalty_challenge_completions: 'completed challenges',
  loyalty_redemptions: 'redemptions',
  visit_reservations: 'passholder reservations',
};

/** Unique and foreign-key violations as 409 / 400 answers naming the field; anything else rethrown. */
function explainConstraint(resource: Resource, error: unknown, values: Record<string, unknown>, action: AuditAction): never {
  const violation = constraintViolation(error);
  if (!violation) throw error;
  const { tab } = resource;
  if (violation.kind === 'foreignKey' && action === 'delete') {
    const referrer = tabByTable(violation.table);
    if (referrer) throw new AppError('CONFLICT', `This ${tab.title} row is still used by ${referrer.title}: change or delete those first.`);
    // A record no tab lists (a ledger entry, a referral): what it keeps is history, so the row is deactivated instead where it can be.
    const used = HISTORY_WORDS[violation.table ?? ''] ?? 'other records';
    const canDeactivate = tab.fields.some((f) => f.type === 'checkbox' && f.column === 'active');
    throw new AppError('CONFLICT', `This ${tab.title} row is still used by ${used}${canDeactivate ? ': deactivate it instead.' : '.'}`);
  }
  const f = tab.fields.find((x) => violation.column !== undefined && snake(x.column) === violation.column);
  if (!f) throw new AppError('CONFLICT', `This change conflicts with another ${tab.title} row.`);
  const value = values[f.name];
  if (violation.kind === 'unique') {
    const message = `${f.label} "${String(value)}" is already in use in ${tab.title}.`;
    throw new AppError('CONFLICT', message, { fields: [{ path: f.name, message }] });
  }
  throw validationError(f, `${f.label} "${String(value)}" does not exist.`);
}

// ---- Use cases ---------------------------------------------------------------------------

/** What a list's query selects and how it sorts (no paging). */
function listQueryOptions(tab: ResourceDeclaration, query: Omit<ListQuery, 'page' | 'pageSize'>) {
  const sortField = fieldByName(tab, query.sort ?? tab.defaultSort.field);
  const filter = tab.filter?.options.find((o) => o.value === (query.filter ?? tab.filter!.options[0]!.value));
  return {
    scope: filter?.values.length ? { column: fieldByName(tab, tab.filter!.field).column, values: filter.values } : undefined,
    search: query.search || undefined,
    searchColumns: tab.searchFields.map((name) => fieldByName(tab, name).column),
    sortColumn: sortField.column,
    direction: query.direction ?? (query.sort ? 'asc' : tab.defaultSort.direction),
  };
}

export async function listResource(deps: ResourceDeps, resource: Resource, query: ListQuery): Promise<{ rows: ApiRow[]; total: number }> {
  const page = await listRows(deps.db, resource.table, {
    ...listQueryOptions(resource.tab, query),
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { rows: await toApiRows(deps, resource, page.rows), total: page.total };
}

/** Rows as the API shows them, with their computed fields counted. */
async function toApiRows(deps: ResourceDeps, resource: Resource, rows: DbRow[]): Promise<ApiRow[]> {
  await resource.hooks.figures?.(deps.db, rows, { timeZone: deps.timeZone, now: new Date() });
  return rows.map((row) => toApiRow(resource, row));
}

/** One row as the API shows it, with its computed fields counted. */
const toApiRowCounted = async (deps: ResourceDeps, resource: Resource, row: DbRow) => (await toApiRows(deps, resource, [row]))[0]!;

/**
 * Every row the tab's list shows (its search, filter and sort), as CSV: one column per field
 * the list reads, headed by its label. Read a page at a time in the list's own order, each page
 * after the last row of the one before (its sort keys and id), so a page costs the same
 * however deep it is (the Audit Log grows without end). Audited before the first row: who
 * exported which tab and what it showed, never the rows.
 */
export async function exportResource(deps: ResourceDeps, resource: Resource, query: ListQuery, staff: StaffActor): Promise<Readable> {
  const shown = {
    search: query.search ?? null,
    filter: query.filter ?? null,
    sort: query.sort ?? null,
    direction: query.direction ?? null,
  };
  await recordAudit(deps.db, { ...staff, action: 'export', resource: resource.tab.key, recordId: null, after: shown });
  const columns: CsvColumn<{ api: ApiRow }>[] = readableFields(resource.tab).map((field) => ({
    header: field.label,
    value: (row) => row.api[field.name],
  }));
  const options = listQueryOptions(resource.tab, query);
  const page: PageReader<{ api: ApiRow; key: ListKey }, ListKey> = async (after, limit) => {
    const read = await listRowsAfter(deps.db, resource.table, options, after, limit);
    const api = await toApiRows(
      deps,
      resource,
      read.map(({ row }) => row),
    );
    return read.map(({ key }, i) => ({ api: api[i]!, key }));
  };
  return csvStream(columns, page, (row) => row.key);
}

export async function createResource(
  deps: ResourceDeps,
  resource: Resource,
  body: Record<string, unknown>,
  staff: StaffIdentity,
): Promise<ApiRow> {
  const values = await toColumns(resource, body);
  try {
    const row = await inTransaction(deps.db, async (tx) => {
      const write: TabWrite = { action: 'create', id: null, stored: null, changes: values };
      resource.hooks.validate?.(values);
      resource.hooks.beforeWrite?.(write, staff);
      const inserted = await insertRow(tx, resource.table, write.changes);
      await recordWrite(tx, deps, staff, resource, write, inserted, null, inserted);
      return inserted;
    });
    return await toApiRowCounted(deps, resource, row);
  } catch (error) {
    explainConstraint(resource, error, body, 'create');
  }
}

/** Answers the row as it now is; nothing written (and no audit entry) when nothing changed. */
export async function updateResource(
  deps: ResourceDeps,
  resource: Resource,
  id: string,
  body: Record<string, unknown>,
  staff: StaffIdentity,
): Promise<ApiRow> {
  const { tab } = resource;
  // Hashing costs tens of milliseconds on purpose: done before the row is locked.
  const values = await toColumns(resource, body);
  try {
    const row = await inTransaction(deps.db, async (tx) => {
      const stored = await findRow(tx, resource.table, id, true);
      if (!stored) throw notFound(tab);
      const changes: DbRow = {};
      for (const name of Object.keys(body)) {
        const f = fieldByName(tab, name);
        const value = values[f.column];
        if (f.type !== 'password' && sameValue(stored[f.column], value)) continue;
        if (f.createOnly) throw validationError(f, `${f.label} can only be set when creating.`);
        changes[f.column] = value;
      }
      if (Object.keys(changes).length === 0) return stored;
      keepOneOf(tab, { ...stored, ...changes });
      resource.hooks.validate?.({ ...stored, ...changes });
      const write: TabWrite = { action: 'update', id, stored, changes };
      resource.hooks.beforeWrite?.(write, staff);
      const updated = await updateRow(tx, resource.table, id, changes);
      if (!updated) throw notFound(tab);
      await recordWrite(tx, deps, staff, resource, write, updated, stored, updated);
      return updated;
    });
    return await toApiRowCounted(deps, resource, row);
  } catch (error) {
    if (error instanceof AppError) throw error;
    explainConstraint(resource, error, body, 'update');
  }
}

export async function deleteResource(deps: ResourceDeps, resource: Resource, id: string, staff: StaffIdentity): Promise<ApiRow> {
  try {
    const row = await inTransaction(deps.db, async (tx) => {
      const stored = await findRow(tx, resource.table, id, true);
      if (!stored) throw notFound(resource.tab);
      const write: TabWrite = { action: 'delete', id, stored, changes: {} };
      resource.hooks.beforeWrite?.(write, staff);
      const deleted = await deleteRow(tx, resource.table, id);
      if (!deleted) throw notFound(resource.tab);
      await recordWrite(tx, deps, staff, resource, write, deleted, deleted, null);
      return deleted;
    });
    return await toApiRowCounted(deps, resource, row);
  } catch (error) {
    if (error instanceof AppError) throw error;
    explainConstraint(resource, error, {}, 'delete');
  }
}

/**
 * Every write, in its transaction: the tab's afterWrite hook, the re-publication of every
 * saved pass for a tab that shapes passes, or of every member card for one that shapes them
 * (a job), and the audit entry.
 */
async function recordWrite(
  tx: Executor,
  deps: ResourceDeps,
  staff: StaffIdentity,
  resource: Resource,
  write: TabWrite,
  row: DbRow,
  before: DbRow | null,
  after: DbRow | null,
) {
  const action: AuditAction = write.action;
  await resource.hooks.afterWrite?.(tx, { ...write, row }, staff, deps.changes);
  if (resource.tab.republishesPasses) await deps.changes.publish(tx, PASSES_CHANGED, [`${resource.tab.key} ${action}`]);
  if (resource.tab.parkWide) await deps.changes.publish(tx, PARK_CHANGED, [`${resource.tab.key} ${action}`]);
  if (resource.tab.republishesMemberCards) await deps.changes.publish(tx, LOYALTY_TIERS_CHANGED, [`${resource.tab.key} ${action}`]);
  await recordAudit(tx, {
    teamMemberGuid: staff.teamMemberGuid,
    username: staff.username,
    action,
    resource: resource.tab.key,
    recordId: String(row[resource.tab.idColumn]),
    before: before && toAuditRow(resource, before),
    after: after && toAuditRow(resource, after),
  });
}

/** The select option lists (OPTION_LISTS): what each shows. */
const optionLoaders: Record<OptionSource, (db: Db) => Promise<{ value: string; label: string }[]>> = {
  // The Customization select of the categories tab.
  passCustomizations: async (db) => (await listCustomizationNames(db)).map((name) => ({ value: name, label: name })),
  // The Team Member select of the Session tab, "Last, First (level)".
  teamMembers: async (db) =>
    (await listTeamMemberChoices(db)).map((m) => ({ value: m.guid, label: `${m.lastName}, ${m.firstName} (${m.accessLevel})` })),
  // The Minimum Tier select of the rewards tab.
  loyaltyTiers: async (db) => (await listTierNames(db)).map((name) => ({ value: name, label: name })),
};

export const listOptions = (db: Db, source: OptionSource) => optionLoaders[source](db);

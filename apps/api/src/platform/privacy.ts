// A person's data, found wherever it is held, and erased. Each feature declares beside its repo
// how to find its section of the person's data (what the export shows) and how to erase what it
// holds of them; app.ts hands both to this plugin, which answers the whole document, or erases
// everything in one transaction: the staff Privacy page and a guest's own request do the same. A person is who an email address, a phone number or a barcode names
// (identify, from the ticket core); the finders match on the lookup keys the schema indexes.
import fp from 'fastify-plugin';
import { and, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PrivacyQuery, PrivacySections } from '@boardwalk/contract/privacy';
import type { Language } from '@boardwalk/contract/i18n/languages';
import type { Db, Executor } from '@boardwalk/db/client';
import { emailKey, phoneKey } from '@boardwalk/db/schema';
import { recordEvent } from './events.ts';
import type { ChangeBus } from './jobs/jobs.plugin.ts';

export interface Person {
  /** The email address, lower case; null when the person is known by a phone only. */
  email: string | null;
  /** The phone's lookup key (phoneKeyOf: its last ten digits); null when the person is known by an email only. */
  phone: string | null;
  /**
   * Set for a person known by name only (a ticket holder with no email or phone): their name as
   * the tickets found hold it; their own tickets are those found by it.
   */
  name?: { firstName: string; lastName: string } | null;
  /**
   * Every ticket they bought (as the order's purchaser), hold or registered, with only their own
   * fields. A ticket is `own` when they are its person: its registrant, or its holder when nobody
   * registered it, or its purchaser when it names nobody else; the photo, wristband, shares and
   * wallet passes of a ticket are its person's.
   */
  tickets: (PrivacySections['tickets'][number] & { own: boolean })[];
}

/** The barcodes of the tickets that are the person's own. */
export const ownBarcodes = (person: Person) => person.tickets.filter((t) => t.own).map((t) => t.barcode);

/** How a query names a person: the ticket core's answer (a barcode names its registrant, holder or purchaser). */
export type Identify = (db: Executor, query: PrivacyQuery) => Promise<Person>;

/** One finder per section of the document, each beside the feature that holds the data. */
export type PersonalDataFinders = { [K in keyof PrivacySections]: (db: Executor, person: Person) => Promise<PrivacySections[K]> };

/**
 * Erases what one feature holds of the person, in the erasure's transaction (in the order
 * app.ts lists them: a step that finds rows by the person's email runs before the step that
 * replaces it); what it changes that others show (a pass) it publishes on `changes`. Answers how
 * many rows it erased.
 */
export interface Eraser {
  /** What it erases, as the answer and the audit entry count it ("photos"). */
  category: string;
  erase(tx: Executor, person: Person, changes: ChangeBus): Promise<number>;
}

/** A row naming the person: its email column is their email, or its phone column their phone. */
export function namesPerson(person: Pick<Person, 'email' | 'phone'>, columns: { email?: AnyPgColumn; phone?: AnyPgColumn }): SQL {
  const tests = [
    person.email !== null && columns.email ? sql`${emailKey(columns.email)} = ${person.email}` : undefined,
    person.phone !== null && columns.phone ? sql`${phoneKey(columns.phone)} = ${person.phone}` : undefined,
  ];
  return or(...tests) ?? sql`false`;
}

/** The column's text, trimmed, equal to this value whatever its case. */
const sameText = (column: AnyPgColumn, value: string) => sql`lower(trim(${column})) = lower(${value.trim()})`;
/** A contact (its first and last name columns) of this name, whatever its case. */
export const hasNameSql = (name: NonNullable<Person['name']>, first: AnyPgColumn, last: AnyPgColumn): SQL =>
  and(sameText(first, name.firstName), sameText(last, name.lastName))!;

/** The JSON form of a stored time. */
export const iso = (value: Date) => value.toISOString();
export const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

/** The person a query names and everything held about them. */
export async function findPersonalData(
  db: Executor,
  query: PrivacyQuery,
  identify: Identify,
  finders: PersonalDataFinders,
): Promise<{ person: Person; sections: PrivacySections }> {
  const person = await identify(db, query);
  const keys = Object.keys(finders) as (keyof PrivacySections)[];
  const found = await Promise.all(keys.map((key) => finders[key](db, person)));
  return { person, sections: Object.fromEntries(keys.map((key, i) => [key, found[i]])) as PrivacySections };
}

export interface ErasureResult {
  person: Person;
  /** Rows erased, by category (every category, 0 when it held nothing). */
  erased: Record<string, number>;
  /** The orders of the person's tickets: the operator erases them in the ticketing system too. */
  orderIds: string[];
}

/**
 * Erases everything held about the person a query names, in one transaction; `record` runs
 * last in it (the audit entry of the erasure), so an erasure is recorded exactly when it happened.
 * `language` is the asking guest's (their own erasure), null when staff erase.
 */
export async function erasePersonalData(
  db: Db,
  query: PrivacyQuery,
  identify: Identify,
  erasers: Eraser[],
  changes: ChangeBus,
  record: (tx: Executor, result: ErasureResult) => Promise<void>,
  language: Language | null,
): Promise<ErasureResult> {
  return db.transaction(async (tx) => {
    const person = await identify(tx, query);
    const erased: Record<string, number> = {};
    for (const { category, erase } of erasers) erased[category] = (erased[category] ?? 0) + (await erase(tx, person, changes));
    const result = { person, erased, orderIds: [...new Set(person.tickets.map((t) => t.orderId))] };
    if (Object.values(erased).some((n) => n > 0)) {
      // The operator's systems are told, with ids only (their earlier events went with the erasure).
      const barcodes = person.tickets.map((t) => t.barcode);
      await recordEvent(tx, 'guest.erased', 'person', { orderIds: result.orderIds, barcodes, language });
    }
    await record(tx, result);
    return result;
  });
}

/** The person a query names and everything held about them, by section. */
export type FindPersonalData = (query: PrivacyQuery) => Promise<{ person: Person; sections: PrivacySections }>;

declare module 'fastify' {
  interface FastifyInstance {
    privacy: {
      find: FindPersonalData;
      erase(
        query: PrivacyQuery,
        record: (tx: Executor, result: ErasureResult) => Promise<void>,
        language?: Language | null,
      ): Promise<ErasureResult>;
    };
  }
}

export const privacyPlugin = fp<{ identify: Identify; finders: PersonalDataFinders; erasers: Eraser[] }>(
  async (app, { identify, finders, erasers }) => {
    const find: FindPersonalData = (query) => findPersonalData(app.database.db, query, identify, finders);
    app.decorate('privacy', {
      find,
      erase: (query, record, language = null) => erasePersonalData(app.database.db, query, identify, erasers, app.jobs, record, language),
    });
  },
  { name: 'privacy', dependencies: ['data', 'jobs'] },
);

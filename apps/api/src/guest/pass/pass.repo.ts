// The pass feature's writes: the guest's registration (the ticketing feed never overwrites it).
import { and, eq, inArray, ne, not, sql, type SQL } from 'drizzle-orm';
import type { ConsentChannel } from '@boardwalk/contract/pass';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { registrations } from '@boardwalk/db/schema';
import { lockTicketRow, ticketEndedBeforeSql } from '../../integrations/ticketing/tickets.repo.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { iso, namesPerson, ownBarcodes, type Eraser, type Person } from '../../platform/privacy.ts';
import { deleteConsentHistory, findConsentHistory } from './consent.repo.ts';
import { countDue, type RetentionRule } from '../../platform/retention.ts';
import { isMemberEmailSql } from '../../loyalty/loyalty.repo.ts';

export type RegistrationValues = Omit<typeof registrations.$inferInsert, 'createdAt' | 'updatedAt'>;

export async function upsertRegistration(db: Executor, values: RegistrationValues) {
  const { barcode: _barcode, ...changes } = values;
  await db
    .insert(registrations)
    .values(values)
    .onConflictDoUpdate({ target: registrations.barcode, set: { ...changes, updatedAt: sql`now()` } });
}

/**
 * The language of a ticket's registration (the guest page's switch): true when it changed,
 * false when it was that already, null when the ticket has no registration. The ticket's row
 * is locked first, as a registration locks it.
 */
export async function setRegistrationLanguage(tx: Executor, barcode: string, language: string): Promise<boolean | null> {
  await lockTicketRow(tx, barcode);
  const [row] = await tx.select({ language: registrations.language }).from(registrations).where(eq(registrations.barcode, barcode));
  if (!row) return null;
  if (row.language === language) return false;
  await tx
    .update(registrations)
    .set({ language, updatedAt: sql`now()` })
    .where(eq(registrations.barcode, barcode));
  return true;
}

/**
 * Locks the ticket (so registrations of one ticket take turns) and then answers the consents
 * its registration holds now (none given when it has none). Two statements: a registration
 * written by the transaction this one waited for is seen only by a statement begun after the
 * wait (a joined row would be read from before it).
 */
export async function lockRegistration(tx: Executor, barcode: string): Promise<{ email: boolean; sms: boolean }> {
  await lockTicketRow(tx, barcode);
  const [row] = await tx
    .select({ email: registrations.optInEmailMarketing, sms: registrations.optInSmsMarketing })
    .from(registrations)
    .where(eq(registrations.barcode, barcode));
  return { email: row?.email ?? false, sms: row?.sms ?? false };
}

/**
 * Makes the registrations `where` names name nobody: names, email and phone emptied, both
 * consents withdrawn and their history deleted; the rows stay (the tickets were registered).
 * Their tickets are published, so their passes follow. Answers how many.
 */
async function pseudonymiseRegistrations(tx: Executor, where: SQL | undefined, changes: ChangeBus): Promise<number> {
  const rows = await tx
    .update(registrations)
    .set({ firstName: '', lastName: '', email: '', phone: '', optInEmailMarketing: false, optInSmsMarketing: false, updatedAt: sql`now()` })
    .where(where)
    .returning({ barcode: registrations.barcode });
  const barcodes = rows.map((row) => row.barcode);
  await deleteConsentHistory(tx, barcodes);
  await changes.publish(tx, TICKET_CHANGED, barcodes);
  return rows.length;
}

/**
 * Retention: a ticket's registration is pseudonymised RETENTION_REGISTRATION_DAYS after the
 * ticket expired or was used (redeemed at the gate): names, email and phone emptied, the consents
 * withdrawn; the row and the ticket stay (the order is a financial record). A registrant who is
 * a loyalty member (by email) keeps theirs. The ticket is published, so its passes follow.
 */
export const registrationRetention: RetentionRule = {
  category: 'registrations',
  days: (r) => r.registrationDays,
  async apply(db, cutoff, { dryRun, changes }) {
    const due = and(
      ne(registrations.email, ''),
      ticketEndedBeforeSql(registrations.barcode, cutoff),
      not(isMemberEmailSql(registrations.email)),
    );
    if (dryRun) return countDue(db, registrations, due);
    return db.transaction((tx) => pseudonymiseRegistrations(tx, due, changes));
  },
};

/** The consents section: the marketing consents of the person's registrations, as they stand. */
export async function findConsentsOfPerson(db: Executor, person: Person): Promise<PrivacySections['consents']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const [rows, history] = await Promise.all([
    db
      .select()
      .from(registrations)
      .where(and(inArray(registrations.barcode, barcodes), ne(registrations.email, ''))),
    findConsentHistory(db, barcodes),
  ]);
  const historyOf = (barcode: string, channel: ConsentChannel) =>
    history
      .filter((r) => r.barcode === barcode && r.channel === channel)
      .map((r) => ({ given: r.given, at: iso(r.at), source: r.source, wording: r.wording }));
  return rows.flatMap((row) =>
    (
      [
        ['email', row.optInEmailMarketing],
        ['sms', row.optInSmsMarketing],
      ] as const
    ).map(([channel, given]) => ({
      barcode: row.barcode,
      channel,
      given,
      at: iso(row.updatedAt),
      history: historyOf(row.barcode, channel),
    })),
  );
}

/** Erasure: the person's registrations name nobody (their consents withdrawn, their history deleted). */
export const registrationErasure: Eraser = {
  category: 'registrations',
  erase: (tx, person, changes) =>
    pseudonymiseRegistrations(tx, namesPerson(person, { email: registrations.email, phone: registrations.phone }), changes),
};

// The pass feature's writes: the guest's registration (the ticketing feed never overwrites it).
import { and, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, registrations, tickets } from '@boardwalk/db/schema';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { countDue, type RetentionRule } from '../../platform/retention.ts';

export type RegistrationValues = Omit<typeof registrations.$inferInsert, 'createdAt' | 'updatedAt'>;

export async function upsertRegistration(db: Executor, values: RegistrationValues) {
  const { barcode: _barcode, ...changes } = values;
  await db
    .insert(registrations)
    .values(values)
    .onConflictDoUpdate({ target: registrations.barcode, set: { ...changes, updatedAt: sql`now()` } });
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
      sql`exists (select 1 from ${tickets} where ${tickets.barcode} = ${registrations.barcode}
        and (${lt(tickets.expires, cutoff)} or ${lt(tickets.redeemed, cutoff)}))`,
      sql`not exists (select 1 from ${loyaltyAccounts} where lower(${loyaltyAccounts.email}) = lower(${registrations.email}))`,
    );
    if (dryRun) return countDue(db, registrations, due);
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(registrations)
        .set({
          firstName: '',
          lastName: '',
          email: '',
          phone: '',
          optInEmailMarketing: false,
          optInSmsMarketing: false,
          updatedAt: sql`now()`,
        })
        .where(due)
        .returning({ barcode: registrations.barcode });
      await changes.publish(
        tx,
        TICKET_CHANGED,
        rows.map((row) => row.barcode),
      );
      return rows.length;
    });
  },
};

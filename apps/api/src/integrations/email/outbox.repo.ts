// The outbox: every message the server sends is kept here, sent or not; its body sealed
// (bodySealed) until sent, then erased.
import { and, asc, eq, inArray, isNull, lt, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { deliveries, outbox } from '@boardwalk/db/schema';
import { iso, isoOrNull, namesPerson, type Eraser, type Person } from '../../platform/privacy.ts';
import { deleteRule } from '../../platform/retention.ts';

/** `text` is the sealed body. */
export async function insertOutboxMessage(db: Executor, values: { to: string; subject: string; text: string }): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ ...values, bodySealed: true })
    .returning({ id: outbox.id });
  return row!.id;
}

/** Sent: the body is erased. */
export async function markOutboxSent(db: Executor, id: number) {
  await db.update(outbox).set({ sentAt: new Date(), error: null, text: null }).where(eq(outbox.id, id));
}

/** Rows whose body was written in clear (by a version that did not seal bodies). */
export async function findUnsealedOutboxMessages(db: Executor) {
  return db
    .select({ id: outbox.id, to: outbox.to, text: outbox.text, sentAt: outbox.sentAt })
    .from(outbox)
    .where(eq(outbox.bodySealed, false));
}

/** Replaces a clear body with its sealed form (or null, erased); false when the row is sealed already. */
export async function replaceUnsealedOutboxText(db: Executor, id: number, text: string | null): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ text, bodySealed: true })
    .where(and(eq(outbox.id, id), eq(outbox.bodySealed, false)))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export async function markOutboxFailed(db: Executor, id: number, error: string) {
  await db.update(outbox).set({ error }).where(eq(outbox.id, id));
}

export async function findOutboxMessage(db: Executor, id: number) {
  const rows = await db.select().from(outbox).where(eq(outbox.id, id));
  return rows[0] ?? null;
}

/** Removes every message to this address (any case): an erased person's mail goes with them. */
export async function deleteOutboxMessagesTo(db: Executor, address: string): Promise<void> {
  await db.delete(outbox).where(eq(sql`lower(${outbox.to})`, address.toLowerCase()));
}

/**
 * Retention: a mail goes RETENTION_MAIL_DAYS after it was sent, after its delivery ended
 * without sending it (dead, or skipped), or, never queued (SMTP_URL was not set: it will not
 * be sent), after it was written.
 */
export const mailRetention = deleteRule(
  'mails',
  (r) => r.mailDays,
  outbox,
  (cutoff) => {
    const delivery = sql`from ${deliveries} where ${deliveries.target} = 'mail' and ${deliveries.payload}->>'outboxId' = ${outbox.id}::text`;
    return or(
      lt(outbox.sentAt, cutoff),
      and(
        isNull(outbox.sentAt),
        sql`exists (select 1 ${delivery} and ${deliveries.state} in ('dead', 'skipped') and ${deliveries.updatedAt} < ${cutoff})`,
      ),
      and(isNull(outbox.sentAt), lt(outbox.createdAt, cutoff), sql`not exists (select 1 ${delivery})`),
    );
  },
);

/** The mails section: the mails to the person's email, without their bodies (a body holds links). */
export async function findMailsToPerson(db: Executor, person: Person): Promise<PrivacySections['mails']> {
  const rows = await db
    .select({ to: outbox.to, subject: outbox.subject, createdAt: outbox.createdAt, sentAt: outbox.sentAt })
    .from(outbox)
    .where(namesPerson(person, { email: outbox.to }))
    .orderBy(asc(outbox.id));
  return rows.map((row) => ({ ...row, createdAt: iso(row.createdAt), sentAt: isoOrNull(row.sentAt) }));
}

/**
 * Rewrites the subjects of the mails to these recipients that match the pattern (a PostgreSQL
 * regular expression): each becomes the replacement (\1 names the pattern's first group).
 * An erasure's way to drop a name a subject kept after sending.
 */
export async function rewriteSubjects(tx: Executor, opts: { to: SQLWrapper; pattern: string; replacement: string }): Promise<void> {
  await tx
    .update(outbox)
    .set({ subject: sql`regexp_replace(${outbox.subject}, ${opts.pattern}, ${opts.replacement})` })
    .where(and(inArray(outbox.to, opts.to), sql`${outbox.subject} ~ ${opts.pattern}`));
}

/** Erasure: the mails to the person's email are deleted, with their deliveries. */
export const mailErasure: Eraser = {
  category: 'mails',
  async erase(tx, person) {
    const rows = await tx
      .delete(outbox)
      .where(namesPerson(person, { email: outbox.to }))
      .returning({ id: outbox.id });
    if (rows.length === 0) return 0;
    await tx.delete(deliveries).where(
      and(
        eq(deliveries.target, 'mail'),
        inArray(
          sql`${deliveries.payload}->>'outboxId'`,
          rows.map((row) => String(row.id)),
        ),
      ),
    );
    return rows.length;
  },
};

// The outbox: every message the server sends is kept here, sent or not.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { outbox } from '@boardwalk/db/schema';

export async function insertOutboxMessage(db: Executor, values: { to: string; subject: string; text: string }): Promise<number> {
  const [row] = await db.insert(outbox).values(values).returning({ id: outbox.id });
  return row!.id;
}

export async function markOutboxSent(db: Executor, id: number) {
  await db.update(outbox).set({ sentAt: new Date(), error: null }).where(eq(outbox.id, id));
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

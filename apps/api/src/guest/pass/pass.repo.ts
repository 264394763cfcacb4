// The pass feature's writes: the guest's registration (the ticketing feed never overwrites it).
import { sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { registrations } from '@boardwalk/db/schema';

export type RegistrationValues = Omit<typeof registrations.$inferInsert, 'createdAt' | 'updatedAt'>;

export async function upsertRegistration(db: Executor, values: RegistrationValues) {
  const { barcode: _barcode, ...changes } = values;
  await db
    .insert(registrations)
    .values(values)
    .onConflictDoUpdate({ target: registrations.barcode, set: { ...changes, updatedAt: sql`now()` } });
}

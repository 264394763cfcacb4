// The proof of a registration's marketing consents: each version of the wording kept once
// (consent_texts, keyed by the text's SHA-256), and each change of a consent appended to
// consent_records with when, where and the version shown.
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Language } from '@boardwalk/contract/i18n/languages';
import { CONSENT_CHANNELS, consentText, type ConsentChannel } from '@boardwalk/contract/pass';
import type { Executor } from '@boardwalk/db/client';
import { consentRecords, consentTexts } from '@boardwalk/db/schema';
import { consentWording } from './consent-wording.ts';

export type ConsentState = Record<ConsentChannel, boolean>;
export type ConsentTextIds = Record<ConsentChannel, string>;

/** Where a registration's consents are given: the registration form (POST /api/register/). */
export const REGISTRATION_FORM = 'registration form';

/**
 * The current wording's version of each consent in a language, stored once with its language
 * (on the first registration under it): the version is the text's, so the English versions
 * recorded before the wording had other languages are the same ones.
 */
export async function currentConsentTexts(db: Executor, brand: string, language: Language): Promise<ConsentTextIds> {
  const wording = consentWording(brand, language);
  const rows = CONSENT_CHANNELS.map((channel) => {
    const text = consentText(wording[channel]);
    return { id: createHash('sha256').update(`${channel}\0${text}`).digest('hex'), channel, text, language };
  });
  await db.insert(consentTexts).values(rows).onConflictDoNothing();
  return Object.fromEntries(rows.map((row) => [row.channel, row.id])) as ConsentTextIds;
}

/** Appends a record for each consent that changed between `before` and `after`. */
export async function recordConsentChanges(
  tx: Executor,
  barcode: string,
  change: { before: ConsentState; after: ConsentState; texts: ConsentTextIds; source: string },
): Promise<ConsentChannel[]> {
  const changed = CONSENT_CHANNELS.filter((channel) => change.before[channel] !== change.after[channel]);
  if (changed.length === 0) return changed;
  await tx
    .insert(consentRecords)
    .values(
      changed.map((channel) => ({ barcode, channel, given: change.after[channel], textId: change.texts[channel], source: change.source })),
    );
  return changed;
}

/** The consent history of these tickets' registrations, oldest first, with the wording of each record. */
export function findConsentHistory(db: Executor, barcodes: string[]) {
  return db
    .select({
      barcode: consentRecords.barcode,
      channel: consentRecords.channel,
      given: consentRecords.given,
      source: consentRecords.source,
      at: consentRecords.createdAt,
      wording: consentTexts.text,
    })
    .from(consentRecords)
    .innerJoin(consentTexts, eq(consentTexts.id, consentRecords.textId))
    .where(and(inArray(consentRecords.barcode, barcodes)))
    .orderBy(asc(consentRecords.id));
}

/** Deletes these tickets' consent history (their registrations were erased). */
export async function deleteConsentHistory(tx: Executor, barcodes: string[]): Promise<void> {
  if (barcodes.length > 0) await tx.delete(consentRecords).where(inArray(consentRecords.barcode, barcodes));
}

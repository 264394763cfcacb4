// The stored-value page (POST /api/stored-value/): a Stored Value Card's balance and today's
// attraction usage, reached by its barcodeHash, a keyed hash of the barcode. The hash is a
// credential: any string is taken, and one that names no card (malformed or unknown) answers
// 404 "Unable to locate order" and counts against the lookup throttle like an unknown order.
import { z } from 'zod/mini';
import { describe } from './describe.ts';

/** What a barcodeHash looks like: HMAC-SHA256, base64url without padding. */
export const BARCODE_HASH_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/stored-value/ */
export const storedValueRequest = z.strictObject({
  barcodeHash: describe(z.string(), 'The keyed hash of the barcode, from the voucher QR code or the order object (barcodeHash)'),
});
export type StoredValueRequest = z.infer<typeof storedValueRequest>;

export const attractionVisit = z.object({
  attraction: z.string(),
  location: z.string(),
  timestamp: describe(z.iso.datetime({ offset: true }), 'When the gate scanned the card (UTC)'),
});
export type AttractionVisit = z.infer<typeof attractionVisit>;

/** The stored value response, with the park's time zone to show the times in. */
export const storedValueResponse = z.object({
  barcode: z.string(),
  credits: z.number(),
  cash: z.number(),
  today: describe(z.iso.date(), "The park's current operating day (YYYY-MM-DD); it starts at 2:00 AM park time"),
  timeZone: describe(z.string(), "The park's time zone (IANA, PARK_TIMEZONE): the attraction times are shown in it"),
  attractions: describe(z.array(attractionVisit), "The card's attraction usage of the current operating day, oldest first"),
});
export type StoredValueResponse = z.infer<typeof storedValueResponse>;

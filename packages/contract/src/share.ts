// Ticket shares: the ticket's own guest shares a ticket with credits with other guests, each of
// whom gets a direct link by email. Every call carries `Authorization: Bearer
// <ticketShareToken>` from the order object.
import { z } from 'zod/mini';
import { barcode, hashUrl, orderId, phone, printable, registrationFields, shareId, ticketShare, TEST_PASS_ORDER_ID } from './pass.ts';

/**
 * A person's name as a share mail may carry it: words of letters (any language, with their
 * combining marks) joined by spaces, hyphens or apostrophes; a period ends a word ("J. R.",
 * "Jr."), so no domain name ("evil.com"), link, markup or digit gets into a mail.
 */
export const PERSON_NAME_PATTERN = /^\p{L}[\p{L}\p{M}]*(?:(?:[ '’-]|\. )+\p{L}[\p{L}\p{M}]*)*\.?$/u;
export const PERSON_NAME_MAX = 50;
export const isPersonName = (value: string) => value.length <= PERSON_NAME_MAX && PERSON_NAME_PATTERN.test(value);

const shareName = (label: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(PERSON_NAME_MAX, `${label} is too long (at most ${PERSON_NAME_MAX} characters)`),
      z.regex(PERSON_NAME_PATTERN, `${label} may hold only letters, spaces, hyphens, apostrophes and periods`),
    );

/** The ticket a share call names in its path: its barcode, or a share link of it. */
export const shareTicketRef = z.union([barcode, hashUrl], 'Barcode or link is not valid');

/** The operator's CRM id of a share (salesforceId): optional, kept as given. */
export const salesforceId = z
  .string()
  .check(z.trim(), z.maxLength(64, 'Salesforce id is too long'), z.refine(printable, 'Salesforce id must not contain control characters'));

/** Phone is optional on a share: empty means none; typed "(310) 555-0100", kept as its digits. */
const optionalPhone = z.pipe(
  z.optional(z.union([z.literal(''), z.null(), phone])),
  z.transform((value: string | null | undefined) => value || null),
);

/** The share form: first name, last name, email required; phone optional. */
export const shareFields = z.strictObject({
  firstName: shareName('First name'),
  lastName: shareName('Last name'),
  email: registrationFields.shape.email,
  phone: optionalPhone,
});
export type ShareFields = z.input<typeof shareFields>;

/** POST /api/share/: the ticket by its barcode (and order id); hashUrl is the page's, empty for the owner. */
export const createShareRequest = z.extend(shareFields, {
  orderId: z.optional(z.union([orderId, z.literal(''), z.literal(TEST_PASS_ORDER_ID)])),
  barcode,
  hashUrl: z.optional(z.union([z.literal(''), hashUrl])),
});
export type CreateShareRequest = z.input<typeof createShareRequest>;

/** PUT /api/share/{barcode or hashUrl}/{shareId} */
export const updateShareParams = z.strictObject({ ticket: shareTicketRef, shareId });
export const updateShareRequest = z.extend(shareFields, {
  salesforceId: z.optional(z.union([salesforceId, z.null()])),
});
export type UpdateShareRequest = z.input<typeof updateShareRequest>;

/** GET /api/share/{barcode or hashUrl} */
export const listSharesParams = z.strictObject({ ticket: shareTicketRef });

/** DELETE /api/share/{orderId or 0}/{barcode or hashUrl}/{shareId}/{salesforceId or empty} */
export const deleteShareParams = z.strictObject({
  orderId: z.union([orderId, z.literal(TEST_PASS_ORDER_ID)]),
  ticket: shareTicketRef,
  shareId,
  salesforceId: z.optional(salesforceId),
});

/** The shares of a ticket (GET): directLink is null, only its hash is kept. */
export const shareList = z.array(ticketShare);

/** The share a POST or PUT made or changed; directLink is given when a new link was issued. */
export const shareAnswer = ticketShare;

/** The texts of the share section, its modal and its failures. */
export const shareTexts = {
  heading: 'Manage Ticket Shares',
  newTitle: 'Set Up Ticket Share',
  editTitle: 'Modify Ticket Share',
  start: 'Start Sharing',
  update: 'Update Info',
  stop: 'Stop Sharing',
  expired: 'This ticket sharing session has expired. Please refresh and try again.',
  listFailed: 'Unable to retrieve guests',
  createFailed: 'Unable to share with guest',
  updateFailed: 'Unable to update',
  deleteFailed: 'Unable to unshare with guest',
  listNetworkError: 'Error retrieving guests',
  createNetworkError: 'Error sharing with guest',
  updateNetworkError: 'Error updating',
  deleteNetworkError: 'Error unsharing with guest',
  created: 'Share successful',
  updated: 'Update successful',
  deleted: 'Guest removed',
  /** A ticket has at most TICKET_SHARE_LIMIT active shares, counted under a lock on the ticket. */
  limitReached: (limit: number) => `A ticket can be shared with at most ${limit} guests.`,
  /** TICKET_SHARE_MAILS_PER_DAY share mails per ticket per park day (from 2 AM). */
  mailLimitReached: (limit: number) => `This ticket has sent its ${limit} share emails for today. Try again after 2 AM (park time).`,
  noCredits: 'Only a ticket with credits can be shared.',
  shareGone: 'This guest is no longer on the ticket.',
} as const;

/**
 * Why a share was refused beyond its code, for the page to word (the answer's `reason`), with
 * `params.limit`: the ticket's active shares are at their limit (400), or its share emails for
 * the park day (429).
 */
export const SHARE_REFUSALS = { limitReached: 'SHARE_LIMIT_REACHED', mailLimitReached: 'SHARE_MAIL_LIMIT_REACHED' } as const;

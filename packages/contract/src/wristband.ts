// Wristband activation: the guest binds the 16-character code of a wristband to a wristband
// ticket; the gate system asks which ticket a band is bound to; staff deactivate a lost band.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { barcode, printable } from './pass.ts';

/** A band code has 16 characters; Activate is enabled only at exactly 16. */
export const WRISTBAND_CODE_LENGTH = 16;
/** Letters and digits; one band is one code whatever the case it is typed in (stored upper case). */
export const WRISTBAND_CODE_PATTERN = /^[A-Za-z0-9]{16}$/;

export const wristbandCodeMessage = 'Wristband code must be 16 letters or digits';

/** A wristband's code as typed (surrounding spaces dropped), normalized to upper case. */
export const wristbandBarcode = describe(
  z.pipe(
    z.string().check(z.trim(), z.regex(WRISTBAND_CODE_PATTERN, wristbandCodeMessage)),
    z.transform((s: string) => s.toUpperCase()),
  ),
  'The 16 letters or digits printed on the wristband (case does not matter)',
);

/** POST /api/wristband/activate/ */
export const wristbandActivateRequest = z.strictObject({
  barcode,
  wristbandBarcode,
  wristbandActivateToken: describe(
    z
      .string()
      .check(
        z.minLength(1, 'The activation token is required'),
        z.maxLength(2048, 'The activation token is not valid'),
        z.refine(printable, 'The activation token is not valid'),
      ),
    "The order object's wristbandActivateToken (valid 15 minutes)",
  ),
});
export type WristbandActivateRequest = z.input<typeof wristbandActivateRequest>;
/** As the server reads it: the band's code trimmed and upper case. */
export type WristbandActivateBody = z.output<typeof wristbandActivateRequest>;

/** The answer of a successful activation (text/plain): how long the band can be used. */
export const wristbandValidity = describe(
  z.string(),
  '"Valid through 11/21/26" (M/D/YY in the park\'s time zone), or "Valid with no end date"',
);

/**
 * For how long an activation can be used: "through 11/21/26" (the ticket's expiry as M/D/YY
 * in the park's time zone), or "with no end date" for a ticket without expiry.
 */
export const validityPeriod = (expiresOn: string | null) => (expiresOn ? `through ${expiresOn}` : 'with no end date');

/** The activation texts, with the period the server gives ("through 12/31/30", "with no end date"). */
export const wristbandTexts = {
  validity: (period: string) => `Valid ${period}`,
  /** 403: the ticket or the band was already activated; the band shown is to be discarded. */
  alreadyActivated: (period: string) =>
    `This wristband was already activated and can be used ${period}. Please discard it and take a new one.`,
  /** 403 for a band staff deactivated (lost): it never binds again. */
  deactivated: 'This wristband was deactivated and can no longer be used. Please discard it and take a new one.',
  unauthorized: 'You are unable to activate this wristband yourself, please visit guest services for additional assistance.',
  expired: 'Activation attempt expired, please refresh and try again.',
  failed: 'Unable to activate this wristband, please visit guest services for additional assistance.',
  networkError: 'Error activating wristband',
  redeemed: 'This Ticket has already been redeemed. Please try again or visit guest services for additional assistance.',
  notWristband: 'This ticket is not for a wristband. Please try again or visit guest services for additional assistance.',
  /** Shown above the code field; the 403 for a second band says the rest. */
  active: 'Your wristband is active.',
} as const;

/**
 * Why a 403 refuses an activation: the answer's `reason`, for the page to word in the guest's
 * language; an already activated one has `params.validThrough`, the ticket's last day in the park
 * (YYYY-MM-DD), or null for no end date.
 */
export const WRISTBAND_REFUSALS = { deactivated: 'WRISTBAND_DEACTIVATED', alreadyActivated: 'WRISTBAND_ALREADY_ACTIVATED' } as const;

/** GET /api/integrations/wristbands/{wristbandBarcode} */
export const wristbandParams = z.strictObject({ wristbandBarcode });

/** The ticket a band is actively bound to, for the gate system. */
export const gateWristband = z.object({
  wristbandBarcode: describe(z.string(), 'The band, upper case'),
  barcode: describe(z.string(), 'The ticket it is bound to'),
  orderId: describe(z.string(), "The ticket's order"),
  product: z.string(),
  activatedAt: describe(z.iso.datetime({ offset: true }), 'When the guest bound it'),
  expires: describe(z.nullable(z.iso.datetime({ offset: true })), "The ticket's expiry; null for none"),
  redeemed: describe(z.nullable(z.iso.datetime({ offset: true })), 'When the ticket was redeemed; null when not'),
  refunded: z.boolean(),
});
export type GateWristband = z.infer<typeof gateWristband>;

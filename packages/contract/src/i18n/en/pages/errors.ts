// What a guest page says when a call fails, in English (docs/i18n.md): one text per error code a
// guest can meet (the API's codes, @boardwalk/contract/errors ERROR_STATUS, and the three a client
// meets on its own side, apps/web/src/lib/api-client.ts ClientErrorCode), so a page can say
// `useTranslations('errors')(error.code)` for any failure; and the situations a code alone does
// not tell apart. A page that words a call's failure its own way (the pass page's "Unable to
// locate order") keeps that text in its own area and uses these for the rest
// (describeRequestError, lib/request-errors.ts).
export default {
  /** No answer arrived: the phone is offline, or the server cannot be reached. */
  NETWORK_ERROR: 'Unable to reach the server. Check your connection and try again.',
  /** An answer that breaks the contract, or a status the contract does not name. */
  UNEXPECTED_RESPONSE: 'Something went wrong on our side. Please try again in a few minutes.',
  HTTP_ERROR: 'Something went wrong on our side. Please try again in a few minutes.',
  /** 400: what was sent was refused (a page checks its fields first and words each one itself). */
  VALIDATION_FAILED: 'Please check what you entered and try again.',
  /** 400 of POST /api/register/. */
  REGISTER_FAILED: 'Unable to register',
  /** 400: a photo that is no picture of a face the park can use. */
  UNPROCESSABLE_IMAGE: 'This image could not be used. Please try another photo.',
  /** 401: a link or code that is not (or no longer) valid. */
  UNAUTHORIZED: 'This link is not valid or has expired.',
  /** 403: not allowed for this ticket or pass. */
  FORBIDDEN: 'This is not possible for this ticket or pass.',
  /** 404 of a pass lookup (and of the calls that name a pass). */
  ORDER_NOT_FOUND: 'Unable to locate order',
  /** 404 of anything else. */
  NOT_FOUND: 'This could not be found.',
  /** 408: the page's session token (a share's, a wristband's) ran out; a retry gets a new one. */
  TOKEN_EXPIRED: 'Temporary server error, please retry',
  /** 409: the thing changed meanwhile. */
  CONFLICT: 'This was changed meanwhile. Please refresh and try again.',
  /** 410: a share link whose share was stopped. */
  PASS_NO_LONGER_SHARED: 'Pass No Longer Shared',
  /** 413: a photo over the size the server takes. */
  PAYLOAD_TOO_LARGE: 'File size is too large',
  /** 415: a file that is no picture. */
  UNSUPPORTED_MEDIA_TYPE: 'This type of file cannot be used. Please choose a photo.',
  /** 429: the throttle (too many lookups, codes or uploads from one place). */
  TOO_MANY_ATTEMPTS: 'Too many attempts. Please wait a few minutes and try again.',
  /** 500, 503: the server's own trouble. */
  INTERNAL: 'Something went wrong on our side. Please try again in a few minutes.',
  DATABASE_UNAVAILABLE: 'Something went wrong on our side. Please try again in a few minutes.',
  SERVICE_UNAVAILABLE: 'Something went wrong on our side. Please try again in a few minutes.',
  /** 409 of a wallet call: the pass is already in a wallet (the support email: the site settings' supportEmail). */
  alreadyInWallet: 'This pass has already been added to a wallet. Please contact {supportEmail} for assistance.',
} as const;

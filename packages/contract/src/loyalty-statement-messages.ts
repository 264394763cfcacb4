// The statement link's refusals (loyalty-statement.ts), in a module of their own without the
// statement's schemas: the loyalty home words them by their reason (apps/web/src/guest/loyalty/loyalty-texts.ts
// serverReason) and would otherwise download every statement schema with its first screen.

/** The texts the server answers and the page shows for a link that no longer opens. */
export const statementMessages = {
  expired: 'This link has expired: links to your points work for 24 hours. Enter your email and we will send you a new one.',
  invalid: 'This link is not valid, or the membership it was for has ended. Enter your email and we will send you a new link.',
  tokenRequired: 'Open the link from our email to see your points.',
  unproven: 'Confirm your email on the Brownie Points page first (we send you a code), then ask for your points again.',
} as const;
export type StatementRefusal = keyof typeof statementMessages;

/** Why a 401 refused the statement's link: the answer's `reason`, for the page to word. */
export const STATEMENT_REFUSALS: Record<StatementRefusal, string> = {
  expired: 'STATEMENT_LINK_EXPIRED',
  invalid: 'STATEMENT_LINK_INVALID',
  tokenRequired: 'STATEMENT_LINK_MISSING',
  unproven: 'STATEMENT_EMAIL_UNPROVEN',
};

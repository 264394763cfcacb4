// The statement link's refusals (loyalty-statement.ts), in a module of their own without the
// statement's schemas: the loyalty home recognizes them (apps/web/src/guest/loyalty/loyalty-texts.ts
// serverReason) and would otherwise download every statement schema with its first screen.

/** The texts the server answers and the page shows for a link that no longer opens. */
export const statementMessages = {
  expired: 'This link has expired: links to your points work for 24 hours. Enter your email and we will send you a new one.',
  invalid: 'This link is not valid, or the membership it was for has ended. Enter your email and we will send you a new link.',
  tokenRequired: 'Open the link from our email to see your points.',
  unproven: 'Confirm your email on the Brownie Points page first (we send you a code), then ask for your points again.',
} as const;

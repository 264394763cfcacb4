// The mails a guest receives, in English: each mail's subject and text (ICU MessageFormat:
// {name} a parameter). The server fills them (apps/api/src/integrations/email/mail-texts.ts).
export default {
  /** The end of a mail carrying a link only its recipient may use (statement, privacy). */
  personalLinkClosing: `The link works for {hours, number} hours and is yours alone: please do not forward it.
You did not ask for it? You can ignore this email. Questions? Email {supportEmail}.

{brand}`,
  share: {
    /** Who shared, when the ticket has no name fit to mail. */
    someone: 'A guest',
    greetingNamed: 'Hi {firstName},',
    greeting: 'Hello,',
    subject: '{who} shared a {brand} ticket with you',
    text: `{greeting}

{who} shared their {brand} ticket ({product}) with you.

Open your pass here:
{link}

From that page you can add the pass to Apple Wallet or Google Wallet and show it at the park.
This link is yours: please do not forward it. If the ticket is no longer shared with you, the link will say so.

See you soon,
{brand}`,
  },
  statement: {
    subject: 'Your {brand} Brownie points',
    text: `Hi {firstName},

Here is the link to your Brownie points: your balance, your tier, every entry with its reason and the rewards you can redeem.
{link}

{closing}`,
    /** To a member whose email is not proven yet: how to prove it first. */
    proveFirst: `Hello,

You asked for your Brownie points. First confirm your email: open {loyaltyUrl}, enter this email and the code we send you.
Then ask for your points again and we will send you the link.

You did not ask for it? You can ignore this email. Questions? Email {supportEmail}.

{brand}`,
  },
  code: {
    subject: 'Your {brand} Brownie Points code',
    text: `Hello,

Your code to confirm this email for {brand} Brownie Points is:

{code}

Enter it on the Brownie Points page. It works for {minutes, number} minutes. Never share it: we will never ask you for it.
You did not ask for it? You can ignore this email. Questions? Email {supportEmail}.

{brand}`,
  },
  privacy: {
    subject: 'Your data at {brand}',
    text: `Hello,

You asked to see the data {brand} holds about {email}. This link shows all of it, lets you download it and lets you delete it:
{link}

{closing}`,
  },
  expiry: {
    subject: 'Your Brownie points expire on {date, date, long}',
    /** One lot: its points and date in a sentence. */
    one: '{points, number, ::group-off} of your Brownie points expire on {date, date, long}.',
    /** Several lots: the total, then a line each. */
    several: '{points, number, ::group-off} of your Brownie points expire soon:',
    lot: '- {points, number, ::group-off} on {date, date, long}',
    text: `Hi {firstName},

{lots}

Redeem them for a reward at any of our tills before then: {loyaltyUrl}
Questions? Email {supportEmail}.

{brand}`,
  },
  passLink: {
    subject: 'Your {brand} loyalty pass',
    greetingNamed: 'Hi {firstName},',
    greeting: 'Hello,',
    text: `{greeting}

Here is the link to your {brand} loyalty pass (member number {memberNumber}).
Open it on your phone to add the pass to Apple Wallet or Google Wallet:
{link}

The link works for {hours, number} hours and is yours alone: please do not forward it.
Questions? Email {supportEmail}.

{brand}`,
  },
  visitPromoted: {
    subject: 'You are booked for {start, date, long}',
    greetingNamed: 'Hi {firstName},',
    greeting: 'Hello,',
    text: `{greeting}

A place freed up and your pass is now booked for {start, date, full}, entry between {start, time, short} and {end, time, short}.
Your pass in your wallet shows the reservation. To see or cancel it, open your pass:
{link}

Questions? Email {supportEmail}.

{brand}`,
  },
} as const;

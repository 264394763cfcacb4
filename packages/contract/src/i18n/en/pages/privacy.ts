// The privacy pages' words in English (docs/i18n.md): the request for the link (from the
// footer), and the link's page: what is held, download, delete.
export default {
  heading: 'Your Data',
  networkError: 'We could not reach the server. Check your connection and try again.',
  request: {
    /** {brand}: the site's brand name, or none while it loads. */
    intro:
      'See everything {brand, select, none {we hold} other {{brand} holds}} about you (tickets, registrations, shares, photos, Brownie points, mails), download it, or delete it. Enter your email and we will email you a link.',
    sent: 'If we hold anything about <strong>{email}</strong>, a link to it is on its way. It works for {hours, number} hours.',
    sentHint: 'Nothing after a few minutes? Check your spam folder, or try the email you used for your tickets or membership.',
    failure: 'We could not send the link just now. Please try again, or email {supportEmail}.',
    failureNoSite: 'We could not send the link just now. Please try again.',
  },
  /** Why the link's page sends the guest back to the request (the server's UNAUTHORIZED, told apart by privacy-api.ts linkRefusal). */
  refused: {
    tokenRequired: 'Open the link from your email to see your data.',
    expired: 'This link has expired: links work for 24 hours. Ask for a new one below.',
    invalid: 'This link is not valid. Ask for a new one below.',
    spent: 'This link was used to delete your data and no longer works. Ask for a new one below.',
  },
  loading: 'Loading your data...',
  loadFailed: 'We could not load your data just now. Please try again; if this keeps happening, email {supportEmail}.',
  tryAgain: 'Try Again',
  intro: 'What we hold about <strong>{email}</strong>.',
  nothing: 'We hold nothing about this email.',
  /** Each kind of data held: its heading, and one line per item. */
  groups: {
    tickets: 'Tickets',
    consents: 'Marketing consents',
    sharesMade: 'Tickets you shared',
    sharesReceived: 'Tickets shared with you',
    photos: 'Photos',
    wristbands: 'Wristbands',
    visitReservations: 'Visit reservations',
    loyalty: 'Brownie points',
    hotelReservations: 'Hotel stays',
    mails: 'Emails we sent you',
    wallet: 'Passes in your wallet',
  },
  lines: {
    /** {roles}: the guest's roles, listed ("purchaser, holder"), or yours. */
    ticket: '{product}, order {orderId}, barcode {barcode} ({roles})',
    roles: { purchaser: 'purchaser', holder: 'holder', registrant: 'registrant', none: 'yours' },
    consent: '{channel, select, sms {Text messages} other {Email news}}: {given, select, yes {yes} other {no}} (ticket {barcode})',
    consentChange: '; {given, select, yes {given} other {withdrawn}} {date}',
    shareMade: '{barcode} with {name}',
    shareReceived: '{barcode}, since {date}{stopped, select, yes { (stopped)} other {}}',
    photo: 'Season pass photo of {barcode}, {date}',
    wristband: '{wristband} on {barcode}',
    visitReservation:
      '{barcode}: {date}, {status, select, booked {booked} waitlisted {on the waitlist} cancelled {cancelled} used {visited} other {not used}}',
    loyalty: 'Member {memberNumber}: {points, plural, one {# point} other {# points}}, {entries, plural, one {# entry} other {# entries}}',
    hotelReservation: 'Reservation {number}, {arrival} to {departure}',
    mail: '{subject}, {date}',
    wallet:
      '{pass, select, member {Member card} other {Pass {barcode}}}: Apple Wallet on {devices, plural, one {# device} other {# devices}}',
  },
  download: 'Download My Data',
  delete: 'Delete My Data',
  confirm: {
    heading: 'Delete Your Data?',
    goes: 'This deletes your names, email, phone, photos and marketing consents, and stops tickets shared with you. It cannot be undone.',
    kept: 'Kept: your orders and tickets as purchase records without your name (a ticket that is still valid still works), and your Brownie points under your member number, which no one can look up by your email any more.',
    keep: 'Keep My Data',
    yes: 'Yes, Delete',
    busy: 'Deleting...',
    /** The close button's name (the ×). */
    close: 'Close',
    failure: 'We could not delete your data just now. Please try again, or email {supportEmail}.',
  },
  deleted: {
    heading: 'Your Data Was Deleted',
    text: 'Your names, email, phone, photos and marketing consents are gone, and shares made to you are stopped. Your orders and tickets stay as purchase records without your name; a ticket that is still valid still works.',
    orders: 'Your tickets came from our ticketing system under order {orders}. If you want them erased there too, email {supportEmail}.',
  },
} as const;

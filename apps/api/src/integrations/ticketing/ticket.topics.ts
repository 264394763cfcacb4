// The ticketing feed owns the tickets (it writes them), so it names their topics; every layer
// above imports them from here. A key is a barcode.

/** What a ticket's pass shows may have changed: the feed's data, the guest's registration or photo, a wallet binding. */
export const TICKET_CHANGED = 'ticket.changed';

/** A ticket is no longer a valid purchase: refunded, or dropped from its order by a resend. */
export const TICKET_WITHDRAWN = 'ticket.withdrawn';

// What the device keeps of a pass for the page with no network (lib/device-copy.ts): only what
// the offline pass shows (the card: names on it, product, dates, balance, barcode, photo, the
// stored-value link it shows). Never a token (share, wristband), a link issued to someone, the
// people it is shared with, or anyone's email or phone.
import type { PassOrder } from '@boardwalk/contract/pass';

export function offlinePass(order: PassOrder): PassOrder {
  return {
    ...order,
    email: null,
    phone: null,
    optInEmailMarketing: false,
    optInSMSMarketing: false,
    iCloudBindingLink: null,
    sharedWith: order.sharedWith && {
      ...order.sharedWith,
      email: '',
      phone: null,
      salesforceId: null,
      directLink: null,
    },
    ticketShares: [],
    ticketShareToken: null,
    wristbandActivateToken: null,
  };
}

/** A pass's copy lives no longer than the pass. */
export const passExpiry = (order: PassOrder) => order.expires;

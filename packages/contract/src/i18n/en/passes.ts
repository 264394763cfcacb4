// What a guest's passes and voucher say, in English: the Apple pass (each text also the key of
// its .lproj/pass.strings entry), the Google Wallet class and object, the PDF voucher and the
// loyalty member's card (ICU MessageFormat; `%@` is Apple's place for a changed value). Names,
// product names, tier names and instructions staff typed are data: shown as they are.
export default {
  label: {
    ticketholder: 'Ticketholder',
    product: 'Product',
    purchaser: 'Purchaser',
    orderId: 'Order ID',
    orderDate: 'Order Date',
    expires: 'Expires',
    redeemed: 'Redeemed',
    instructions: 'Instructions',
    guestServices: 'Guest Services',
    visitDate: 'Date',
    admission: 'Admission',
    parkHours: 'Park Hours',
    reservation: 'Reservation',
    notice: 'Park Notice',
    balance: 'Balance',
    credits: 'Credits',
  },
  value: {
    /** Cash on a ticket: US dollars. */
    money: '{amount, number, ::currency/USD}',
    credits: '{credits, plural, one {{credits, number, ::.##} Credit} other {{credits, number, ::.##} Credits}}',
    date: '{date, date, ::yMMMd}',
    dateTime: '{date, date, ::yMMMdjmm}',
    hours: '{opens, time, ::jmm} – {closes, time, ::jmm}',
    /** A season pass's next reserved entry window: its day and times. */
    visitWindow: '{start, date, ::MMMEd}, {start, time, ::jmm} – {end, time, ::jmm}',
    /** A void pass's product: the product's name and why it is void. */
    voided: '{product} ({reason})',
    yes: 'Yes',
  },
  /** Why a pass is void (pass-style.service.ts's reasons). */
  voidReason: {
    refunded: 'Refunded',
    redeemed: 'Redeemed',
    expired: 'Expired',
    noLongerValid: 'No Longer Valid',
    noLongerShared: 'No Longer Shared',
  },
  /** What Apple Wallet says on the lock screen when a field changes (%@: its new value). */
  changed: {
    balance: 'Your balance is now %@',
    credits: 'Your credits is now %@',
    expires: 'Now expires %@',
    visitDate: 'Your visit is now on %@',
    parkHours: 'Park hours are now %@',
    reservation: 'Your reservation is now %@',
    points: 'You now have %@ Brownie points',
    tier: 'You are now %@',
    challenge: 'Challenge complete: %@',
  },
  google: {
    photo: 'Ticketholder photo',
    admission: '{brand} Admission',
    storedValueCard: 'Stored Value Card',
  },
  /** Why a ticket staff excluded from wallets cannot go to one, when staff wrote no message of their own. */
  excluded: 'This item cannot be added to a digital wallet. Please visit guest services for assistance.',
  voucher: {
    title: '{brand} voucher',
    heading: 'Ticket Voucher',
    product: 'PRODUCT',
    void: 'VOID: {reasons}',
    voidNotice: 'This ticket is void and will not be accepted at the gate.',
    checkBalance: 'Check your balance',
    scanForBalance: "Scan for your card's credits and today's rides.",
    footer: 'Present this voucher with the barcode at the gate. Printed {printed, date, ::yMMMdjmm}.',
  },
  /** The loyalty member's card. */
  member: {
    programName: 'Brownie Points',
    description: '{brand} Brownie Points',
    points: 'Brownie Points',
    member: 'Member',
    memberNumber: 'Member Number',
    tier: 'Tier',
    /** The tier of a member whose earned points reach no tier. */
    noTier: 'Member',
    expiringLabel: 'Expiring Soon',
    expiring: '{points, number} points on {date, date, ::yMMMd}',
    /** All a removed member's card still shows. */
    membershipEnded: 'Membership ended',
    /** A challenge's field: the member's progress, by what it counts; then what completing it earned. */
    challengeProgress: {
      days: '{progress, number} of {goalCount, plural, one {# day} other {# days}}',
      outlets: '{progress, number} of {goalCount, plural, one {# outlet} other {# outlets}}',
      nights: '{progress, number} of {goalCount, plural, one {# night} other {# nights}}',
    },
    challengeDone: '{points, plural, one {# point} other {# points}} earned',
    /** Google Wallet's message when a challenge is complete. */
    challengeMessage: 'Challenge complete! You earned {points, plural, one {# Brownie point} other {# Brownie points}}.',
  },
} as const;

// The pass lookup and the pass card in English (apps/web/src/guest/ticket/; docs/i18n.md): the
// login form, the order id and barcode fields, a person's fields (the registration, a share),
// the card, its barcode, the exclusion notice and Start Over.
export default {
  login: {
    heading: 'Find Your Pass',
    intro: 'Enter the order ID and a barcode from your confirmation email to see your ticket or pass.',
    submit: 'Find My Pass',
    busy: 'Finding your pass…',
    /** No answer to the lookup; any other failure is errors.ORDER_NOT_FOUND. */
    networkError: 'Error logging in',
  },
  /** The order id and barcode of a lookup (order-fields.tsx), and what is wrong with them. */
  order: {
    orderId: 'Order ID',
    orderIdHint: '8 digits',
    orderIdRequired: 'Order ID is required',
    orderIdInvalid: 'Order ID must be 8 digits',
    barcode: 'Barcode',
    barcodeHint: '8 to 18 digits',
    barcodeRequired: 'Barcode is required',
    barcodeInvalid: 'Barcode must be 8 to 18 digits',
  },
  /** A person's fields (person-fields.ts): their labels and what is wrong with each. */
  person: {
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email',
    phone: 'Phone',
    phoneHint: '(999) 999-9999',
    optional: '(optional)',
    problems: {
      firstName: {
        required: 'First name is required',
        tooLong: 'First name is too long',
        /** A share's (its names have a lower limit). */
        tooLongAtMost: 'First name is too long (at most {max, number} characters)',
        letters: 'First name may hold only letters, spaces, hyphens, apostrophes and periods',
        invalid: 'First name must not contain control characters',
      },
      lastName: {
        required: 'Last name is required',
        tooLong: 'Last name is too long',
        tooLongAtMost: 'Last name is too long (at most {max, number} characters)',
        letters: 'Last name may hold only letters, spaces, hyphens, apostrophes and periods',
        invalid: 'Last name must not contain control characters',
      },
      email: { required: 'Email is required', tooLong: 'Email is too long', invalid: 'Email is not valid' },
      phone: { required: 'Phone is required', tooShort: 'Phone must have at least 10 digits', tooLong: 'Phone is too long' },
    },
  },
  card: {
    credits: 'Credits',
    balance: 'Balance',
    viewBalance: 'View Balance',
    void: 'Void',
    /** Why a pass is void (pass-rules.ts voidReasons). */
    voidReasons: { Refunded: 'Refunded', Redeemed: 'Redeemed', Expired: 'Expired' },
    photoOf: 'Photo of {name}',
    photo: 'Passholder photo',
    product: 'Product',
    refunded: 'Refunded',
    primaryTicketholder: 'Primary Ticketholder',
    sharedWith: 'Shared With',
    ticketholder: 'Ticketholder',
    purchaser: 'Purchaser',
    orderDate: 'Order Date',
    redeemed: 'Redeemed',
    expires: 'Expires',
    disclaimer: 'This is not your wild pass card!',
  },
  barcode: {
    label: 'Barcode',
    /** The graphic's name for a screen reader. */
    graphic: 'Barcode {value}',
    graphicVoid: 'Barcode {value} (void)',
  },
  exclusion: { heading: 'Pass Not Available' },
  startOver: 'Start Over',
} as const;

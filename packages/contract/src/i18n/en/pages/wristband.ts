// The wristband activation page's words in English (docs/i18n.md).
export default {
  heading: 'Activate Your Wristband',
  intro: 'Enter the order ID and the barcode of your wristband ticket from your confirmation email.',
  form: 'Wristband activation',
  codeLabel: 'Wristband Code',
  codeHint: 'The 16 letters and digits printed on your wristband',
  codeInvalid: 'Wristband code must be 16 letters or digits',
  activate: 'Activate',
  activating: 'Activating…',
  active: 'Your wristband is active.',
  lost: 'Lost your wristband? Please visit guest services for a new one.',
  /** How long the band can be used: the ticket's expiry ({date}: M/D/YY in English), or none. */
  validThrough: 'Valid through {date}',
  validForever: 'Valid with no end date',
  redeemed: 'This Ticket has already been redeemed. Please try again or visit guest services for additional assistance.',
  notWristband: 'This ticket is not for a wristband. Please try again or visit guest services for additional assistance.',
  /** 403: the ticket or the band was already activated; the band shown is to be discarded. */
  alreadyActivatedThrough: 'This wristband was already activated and can be used through {date}. Please discard it and take a new one.',
  alreadyActivatedForever: 'This wristband was already activated and can be used with no end date. Please discard it and take a new one.',
  /** 403 for a band staff deactivated (lost). */
  deactivated: 'This wristband was deactivated and can no longer be used. Please discard it and take a new one.',
  unauthorized: 'You are unable to activate this wristband yourself, please visit guest services for additional assistance.',
  expired: 'Activation attempt expired, please refresh and try again.',
  failed: 'Unable to activate this wristband, please visit guest services for additional assistance.',
  networkError: 'Error activating wristband',
} as const;

// The pass page in English (apps/web/src/guest/pass/; docs/i18n.md): its heading and buttons, a
// share that was stopped, the registration form and its marketing consents.
export default {
  heading: { own: 'Your Pass', shared: 'Shared Pass' },
  editRegistration: 'Edit Registration',
  loading: 'Loading…',
  noLongerShared: {
    text: 'The guest who shared this pass with you has stopped sharing it. Ask them to share it again, or find your own ticket with its order ID and barcode.',
  },
  registration: {
    heading: 'Register Your Pass',
    editHeading: 'Edit Registration',
    intro: 'Tell us who this ticket belongs to. All fields are required unless marked optional.',
    optIns: 'News and offers',
    submit: 'Register',
    busy: 'Registering…',
    cancel: 'Cancel',
    /** No answer to the registration; any other failure is errors.REGISTER_FAILED. */
    networkError: 'Error registering',
  },
  /**
   * The marketing consents as the registration form shows them, word for word what the server
   * records with a registration in this language (apps/api/src/guest/pass/consent-wording.ts:
   * a version is the SHA-256 of its text). A change of these words is a new version of the
   * consent: keep the English as it was unless the consent itself changes. {brand} is the park's
   * brand name, {shortCode} the short code the texts come from (SMS_SHORT_CODE).
   */
  consent: {
    /** The brand's place in the consents until the site settings have loaded. */
    us: 'us',
    emailLabel: 'Yes, email me news and announcements from {brand}.',
    smsLabel: 'Yes, text me news and offers from {brand}.',
    smsDisclosure:
      'By checking this box, you agree to receive recurring automated marketing text messages from {brand} at the phone number above. Message frequency varies. Reply HELP for help and STOP to cancel. Message and data rates may apply. Consent is not a condition of purchase. For help, text HELP to {shortCode}; to stop receiving messages, text STOP to {shortCode}.',
  },
} as const;

// The loyalty club's guest pages in English (apps/web/src/guest/loyalty/; docs/i18n.md): the
// sign-in with the code mailed to the email, joining, the home, the three claims and their
// answers, the pass lookup and the member's card from a staff member's link.
export default {
  heading: 'Brownie Points',
  submit: 'Submit',
  submitting: 'Submitting your info...',
  back: 'Back',
  backHome: 'Back to Brownie Points',
  startOver: 'Start Over',
  downloadApp: 'Download our mobile app and finish setting up your account with the same email to see and use your Brownie points.',
  /** Any failure a step does not word itself (the support address: the site settings' supportEmail). */
  failure: 'Unable to submit, please try again later. If this issue persists, please email us at {supportEmail} for assistance.',
  /** The first step: the email. */
  signIn: {
    intro: 'Earn Brownie points for your park tickets, food and drinks, and hotel stays. Enter your email to start.',
    email: 'Email',
    continue: 'Continue',
    member: 'Already a member? <link>See my points</link>',
  },
  /** The second step: the 6-digit code mailed to the email. */
  code: {
    heading: 'Check Your Email',
    intro:
      'We sent a 6-digit code to <strong>{email}</strong>. Enter it to continue. It works for {minutes, plural, one {# minute} other {# minutes}}.',
    label: 'Code',
    hint: '6 digits, from our email',
    confirm: 'Confirm',
    sendAgain: 'Send a New Code',
    sending: 'Sending...',
    resent: 'We sent you a new code. Only the newest code works.',
    /** The code refused (400 of /api/loyalty/confirm and /create), by the server's reason. */
    wrongCode: 'This code is not right. Check the latest email we sent you and try again.',
    expired: 'This code has expired or was tried too many times. Ask for a new code.',
    proofRequired: 'Confirm your email with the code we sent you first.',
  },
  /** No account uses the email: the names that create one. */
  /** Why a referral link was refused when joining (nothing was created). */
  referral: {
    unknown: 'This invitation link is not valid.',
    self: 'You cannot use your own invitation link.',
    existing: 'Invitation links are for new members: this email already has an account.',
    capped: 'This invitation link has been used as often as it can be this month.',
    noCampaign: 'Invitations are not running right now.',
  },
  join: {
    heading: 'Join Brownie Points',
    intro: 'We could not find an account for <strong>{email}</strong>. Tell us your name to join.',
    firstName: 'First Name',
    lastName: 'Last Name',
    birthday: 'Birthday (optional)',
    birthMonth: 'Month',
    birthDay: 'Day',
    birthdayHint: 'On your birthday we add a gift of points to your account.',
    /** The guest came by a member's referral link. */
    referred: 'A member invited you: when you add your first purchase, you both earn bonus points.',
    withoutReferral: 'Join Without the Invitation',
    conflict: 'Unable to create your profile, please try again later...',
  },
  home: {
    intro: 'Signed in as <strong>{email}</strong>. What would you like to add?',
    choices: 'Purchases to add',
    statement: 'My points: balance, history and rewards',
    passes: 'Add a ticket or pass to your digital wallet',
    logOut: 'Log Out',
  },
  /** The three claim forms: what each asks for, and the scanner's title. */
  claims: {
    tickets: {
      title: 'In-Park Ticket Purchase',
      label: 'Order ID or Invoice Number',
      hint: '8 digits, from your confirmation email',
      scan: 'Scan your ticket barcode',
    },
    purchase: {
      title: 'Food & Beverage Purchase',
      label: 'Check Number',
      hint: 'Printed on your receipt',
      scan: 'Scan your check number',
    },
    hotels: {
      title: 'Hotel Reservation',
      label: 'Reservation Number',
      hint: 'From your reservation confirmation',
    },
  },
  claim: {
    intro: 'Add a purchase to earn Brownie points. Each purchase can be added once.',
    /** A member who may not claim online: an account from before, or one that already claimed. */
    existingAccount:
      'You already have a loyalty account. To add a purchase, please email {supportEmail} with your membership ID and your reservation number, and our team will add it for you.',
    alreadyClaimed:
      "You've already added a purchase online. To add more, please email {supportEmail} with your membership ID and your order, check or reservation number.",
    membershipId: 'Membership ID: <strong>{userID}</strong>',
    /** Several checks share the number. */
    candidates: 'Several checks have this number. Which one is yours?',
    terminal: 'Terminal {terminal}',
    add: 'Add',
    added: 'Added',
    /** The camera scanner (food and beverage, tickets). */
    scan: {
      button: 'Scan Barcode',
      hint: 'Hold the barcode inside the frame. You can also type the number instead.',
      close: 'Close',
    },
  },
  /** Why a claim was refused (400), by the server's reason; `other` for a reason this page does not know. */
  refused: {
    unknownAccount: 'We could not find that loyalty account. Please start over.',
    emailMismatch: 'That email does not match this loyalty account. Please start over.',
    notPublic:
      'This account can no longer add purchases online. Please email {supportEmail} with your membership ID and your order, check or reservation number.',
    alreadyClaimedOnline:
      'This account has already added a purchase online. Please email {supportEmail} with your membership ID to add more.',
    notYours: 'This purchase is not under your email address. Guest Services can add it for you.',
    scanReceipt: 'Scan the barcode on your receipt.',
    unknownOrder: 'We could not find that order.',
    unknownCheck: 'We could not find that check.',
    unknownReservation: 'We could not find that reservation.',
    refunded: 'This purchase was refunded and cannot earn points.',
    cancelled: 'This reservation was cancelled and cannot earn points.',
    tooOld: 'This purchase is more than {days, number} days old and can no longer earn points.',
    claimed: 'This purchase has already been claimed.',
    nothingToEarn: 'This purchase has no amount that earns points.',
    other: 'This purchase could not be added. Check the number and try again.',
  },
  earned: {
    heading: "You've Earned some Brownie Points!",
    points: '+{points, number} Brownie points',
    balance: 'Your points were applied to your account. Your balance is now <strong>{balance, number}</strong> Brownie points.',
  },
  /** /loyalty/passes: the pass lookup that opens a pass with its wallet buttons. */
  findPass: {
    heading: 'Add to Your Digital Wallet',
    intro:
      'Add your park tickets and passes to Apple Wallet or Google Wallet. Enter the order ID and a barcode from your confirmation email.',
    submit: 'Find My Pass',
    busy: 'Finding your info...',
  },
  /** /loyalty/pass: the member's card from the link staff emailed. */
  card: {
    heading: 'Your Brownie Points Card',
    intro:
      'Add your membership card for <strong>{email}</strong> to your digital wallet: it shows your Brownie points and updates when they change.',
    incomplete: 'This link is not complete. Please open the whole link from our email, or email {supportEmail} for a new one.',
  },
} as const;

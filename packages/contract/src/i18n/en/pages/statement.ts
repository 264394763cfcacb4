// The member's statement in English (apps/web/src/guest/loyalty/statement-page.tsx; docs/i18n.md):
// the form that emails the link, why a link no longer opens, and the statement itself (balance,
// tier, card, rewards, history).
export default {
  heading: 'My Points',
  /** Asking for the link by email (the answer reads the same whether or not the email is a member's). */
  request: {
    intro:
      'See your balance, your tier, every entry with its reason and the rewards you can redeem. Enter the email of your membership and we will email you a link.',
    sent: 'If <strong>{email}</strong> belongs to a Brownie Points member, a link to your points is on its way. It works for {hours, plural, one {# hour} other {# hours}}.',
    sentHint: 'Nothing after a few minutes? Check your spam folder, or make sure you used the email of your membership.',
    back: 'Back to Brownie Points',
  },
  /** A link that no longer opens (401), by the server's reason. */
  refused: {
    expired: 'This link has expired: links to your points work for 24 hours. Enter your email and we will send you a new one.',
    invalid: 'This link is not valid, or the membership it was for has ended. Enter your email and we will send you a new link.',
    tokenRequired: 'Open the link from our email to see your points.',
    unproven: 'Confirm your email on the Brownie Points page first (we send you a code), then ask for your points again.',
  },
  loading: 'Loading your points...',
  loadingMore: 'Loading...',
  /** The statement or a page of it did not load. */
  networkError: 'We could not reach Boardwalk. Check your connection and try again.',
  failure: 'We could not load your points just now. Please try again; if this keeps happening, email {supportEmail}.',
  tryAgain: 'Try Again',
  newLink: 'Ask for a new link',
  member: '{firstName} {lastName} · Member number <nowrap>{memberNumber}</nowrap>',
  /** Whole points: `amount` is the number as the page writes it (a true minus sign below zero), `count` its size. */
  points: '{count, plural, one {{amount} point} other {{amount} points}}',
  balance: 'Balance',
  expiring: '<strong>{points}</strong> expire on <strong>{date}</strong>. Redeem them before then.',
  negative:
    'Your balance is below zero because a refund took back points you had already spent. Rewards unlock again once you earn them back.',
  tier: {
    heading: 'Tier: {tier}',
    none: 'Tier: none yet',
    progress: 'Progress to {tier}',
    progressValue: '{earned} of {goal}',
    /** `toGo`: the points still to earn, written by the page; `count`: how many. */
    toGo: '{earned} earned in the last 365 days: {count, plural, one {{toGo} more point} other {{toGo} more points}} to reach <strong>{tier}</strong>.',
    top: '{earned} earned in the last 365 days: you have reached our highest tier.',
  },
  card: 'Your Card',
  rewards: {
    heading: 'Rewards',
    none: 'No rewards are offered right now.',
    howTo: 'Show your card at any till or at guest services to redeem a reward.',
    redeemable: 'Redeemable now',
  },
  /** The member's referral link and who joined with it. */
  referral: {
    heading: 'Invite Friends',
    howTo: 'Share your link: when a friend joins with it and adds their first purchase, you both earn bonus points.',
    link: 'Your invitation link',
    copy: 'Copy',
    copied: 'Link copied.',
    none: 'No one has joined with your link yet.',
    pending: '{firstName}, joined {date}: waiting for their first purchase',
    earned: '{firstName}, joined {date}: bonus earned',
  },
  /** The challenges running now, with the member's progress. */
  challenges: {
    heading: 'Challenges',
    progress: {
      days: '{progress, number} of {goalCount, plural, one {# day} other {# days}} visited',
      outlets: '{progress, number} of {goalCount, plural, one {# food outlet} other {# food outlets}} tried',
      nights: '{progress, number} of {goalCount, plural, one {# hotel night} other {# hotel nights}} stayed',
    },
    reward: 'Complete it by {date} to earn {points, plural, one {# point} other {# points}}.',
    completed: 'Complete: {points, plural, one {# point} other {# points}} earned.',
  },
  history: {
    heading: 'History',
    empty: 'No points yet. <link>Add a purchase</link> to start earning.',
    more: 'Show More',
    /** One entry, by its kind; `purchase` is entry.purchase worded, `date` the page's date. */
    entry: {
      purchase: '{product}, {kind} {reference}',
      /** The purchase's kind of number, by its type. */
      purchaseKinds: { ticket: 'order', 'food-and-beverage': 'check', hotel: 'reservation' },
      earn: 'Earned: {purchase}',
      /** `why`: one of the causes below. */
      reversal: 'Taken back ({why}): {purchase}',
      causes: { refunded: 'refunded', cancelled: 'cancelled', removed: 'removed by its feed', removedByStaff: 'removed by guest services' },
      adjustment: 'Adjusted by guest services: {note}',
      redemption: 'Redeemed: {reward}',
      redemptionReversal: 'Redemption reversed: {reward}',
      expired: 'Expired: points earned {date}',
      /** A campaign's bonus on a claimed purchase (`campaign`: its name, as staff wrote it). */
      bonus: 'Bonus, {campaign}: {purchase}',
      /** A campaign's bonus on no purchase: a birthday's, a referral's, a challenge's. */
      campaignBonus: 'Bonus: {campaign}',
      bonusReversal: 'Bonus taken back ({why}), {campaign}: {purchase}',
      /** A challenge's bonus taken back: a purchase it counted was reversed. */
      challengeTakenBack: 'Bonus taken back, {campaign}: goal no longer met',
      /** Points a reversed redemption gave back after their own expiry date. */
      expiredGivenBack: 'Expired: points given back after their date',
    },
  },
} as const;

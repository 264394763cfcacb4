// The map of personal data: every column of every table of the schema, classified once, beside
// the schema that declares them. A guest's column names its category and what erasing the
// guest does to it; a staff member's column is the Team tab's to manage; any other column
// names nobody. The compiler refuses a table entry that leaves a column out, and
// personal-data.test.ts refuses a table left out, so a new column or table cannot be forgotten.
// docs/privacy.md shows the map as a table (`npm run docs:privacy` writes it; the test checks it).
//
// Records keep the ids that the operator's systems know (order id, barcode, member number):
// an order stays a financial record and the ledger stays exact, and once the person's columns
// are erased those ids name nobody.
import { getTableColumns, getTableName, type InferSelectModel, type Table } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import * as schema from './schema.ts';

/** What kind of a guest's data a column holds. */
export const PERSONAL_CATEGORIES = ['contact', 'photo', 'consent', 'loyalty', 'device', 'mail', 'audit'] as const;
export type PersonalCategory = (typeof PERSONAL_CATEGORIES)[number];

/**
 * What erasing the guest does to a column: `delete`, the row goes; `blank`, the value is
 * emptied (a consent withdrawn) and the row stays; `pseudonymise`, the value is replaced by one
 * that names nobody (where the row must stay and the column cannot be empty); `keep`, the value
 * stays as part of a financial or technical record that names nobody once the rest is erased.
 */
export const ERASURES = ['delete', 'blank', 'pseudonymise', 'keep'] as const;
export type Erasure = (typeof ERASURES)[number];

export type ColumnClass =
  { kind: 'none' } | { kind: 'staff' } | { kind: 'guest'; category: PersonalCategory; erasure: Erasure; note?: string };

/** Names nobody. */
const none: ColumnClass = { kind: 'none' };
/** A staff member's data: kept while they are on the team, managed in the Team tab. */
const staff: ColumnClass = { kind: 'staff' };
const guest = (category: PersonalCategory, erasure: Erasure, note?: string): ColumnClass => ({
  kind: 'guest',
  category,
  erasure,
  ...(note && { note }),
});

/** Code other than the owner's that may import a table, and why (the reason is the rule's record). */
export interface SharedWith {
  /** A folder or a file under apps/api/src. */
  path: string;
  reason: string;
}

export interface TableMap<T extends Table = Table> {
  table: T;
  /**
   * The feature that owns the table: its folder under apps/api/src. Only files in that folder
   * import the table from @boardwalk/db/schema; other code reads and writes it through the
   * owner's functions (table-ownership.test.ts checks every product file of the API).
   */
  owner: string;
  /** The few exceptions, each with its reason; none by default. */
  sharedWith?: SharedWith[];
  /** What a row is, in a few words. */
  holds: string;
  columns: { [K in keyof InferSelectModel<T>]: ColumnClass };
}

/** One table's entry: every column, checked by the compiler. */
const entry = <T extends Table>(map: TableMap<T>): TableMap => map as unknown as TableMap;

const stamps = { createdAt: none, updatedAt: none } as const;

// ---- The exceptions to one owner per table, each with its reason ----
// A table a back-office tab edits is reached by the generic resources through SCHEMA_WIDE;
// its owner is the feature whose rules read it (the pass rules, the wallet's park settings,
// staff sign-in).

/** The ticket core reads, never writes, the rows around a ticket. */
const TICKET_CORE: SharedWith = {
  path: 'guest/ticket',
  reason:
    "the ticket core finds a ticket and derives the order object from the feed's rows and what hangs off them, in one query per lookup (bench:lookup's figure); it imports no guest feature, so it cannot ask their repos",
};
/** The ticketing feed answers an order with what guests added to its tickets. */
const TICKETING_ORDER: SharedWith = {
  path: 'integrations/ticketing',
  reason:
    "the ticketing feed's order read shows each ticket with its registration and shares in its query, and a refund drops them with the tickets; an integration imports no guest feature",
};
/** The gate's lookup of a wristband. */
const GATE_BAND: SharedWith = {
  path: 'integrations/gate/wristbands.repo.ts',
  reason:
    "the gate's lookup of a band reads its binding and its ticket in one query; an integration imports neither a guest feature nor another system's folder",
};
/** The demo loader's seed. */
const CHALLENGES: SharedWith = {
  path: 'loyalty/loyalty-challenges.repo.ts',
  reason:
    "a challenge's progress counts a member's claims with the feed's rows they name (a visit's day, a check's till, a stay's nights) in one query each time it is read; the feeds' repos answer one row at a time",
};

const VISITS_USED: SharedWith = {
  path: 'guest/visits/visits.repo.ts',
  reason:
    "a reservation is marked used (or a no-show) by the gate feed's uses of its pass within its day, in the one statement that changes its status; the gate's repo answers one row at a time",
};

/** A season pass's wallet passes show its next reservation. */
const NEXT_VISIT: SharedWith = {
  path: 'guest/ticket/next-visit.repo.ts',
  reason:
    "a season pass's Apple and Google passes show its next booked entry window and come to the lock screen in it; the wallet imports no guest feature, so the ticket core reads it for them",
};

const DEMO: SharedWith = {
  path: 'demo/demo.repo.ts',
  reason:
    "the demo loader seeds, in one transaction, the configuration and shares a fresh demo's orders need; it runs only when the demo is asked for, never on an operator's data",
};

/** The wallet's pass queries: whose pass a serial number is, in the statement that reads it. */
const WALLET_PASSES: SharedWith = {
  path: 'wallet',
  reason:
    "a pass's serial number names a ticket, a share or a member: the wallet's repos (the passes, PassKit's registrations and listings, Google's callbacks, presence) find whose pass it is, and whether it still stands, in the statement that reads the pass (PassKit's list of updated serials is one query per device); they only read these rows",
};

export const PERSONAL_DATA: TableMap[] = [
  // ---- Ticketing feed ----
  entry({
    table: schema.orders,
    owner: 'integrations/ticketing',
    sharedWith: [TICKET_CORE, DEMO],
    holds: 'an order of the ticketing system, with its purchaser',
    columns: {
      orderId: none,
      orderDate: none,
      purchaserFirstName: guest('contact', 'blank'),
      purchaserLastName: guest('contact', 'blank'),
      purchaserEmail: guest('contact', 'blank'),
      purchaserPhone: guest('contact', 'blank'),
      ...stamps,
    },
  }),
  entry({
    table: schema.tickets,
    owner: 'integrations/ticketing',
    sharedWith: [TICKET_CORE, GATE_BAND, WALLET_PASSES],
    holds: 'a ticket or pass of an order, with its holder',
    columns: {
      barcode: none,
      orderId: none,
      position: none,
      product: none,
      price: none,
      category: none,
      categoryId: none,
      packId: none,
      merchItemId: none,
      isPassholder: none,
      holderFirstName: guest('contact', 'blank'),
      holderLastName: guest('contact', 'blank'),
      holderEmail: guest('contact', 'blank'),
      holderPhone: guest('contact', 'blank'),
      credits: none,
      cash: none,
      expires: none,
      visitDate: none,
      redeemed: none,
      refunded: none,
      isPassActivated: none,
      iCloudBindingLink: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.registrations,
    owner: 'guest/pass',
    sharedWith: [TICKET_CORE, TICKETING_ORDER],
    holds: "a guest's registration of a ticket, with their marketing consents",
    columns: {
      barcode: none,
      firstName: guest('contact', 'blank'),
      lastName: guest('contact', 'blank'),
      email: guest('contact', 'blank'),
      phone: guest('contact', 'blank'),
      optInEmailMarketing: guest('consent', 'blank', 'withdrawn'),
      optInSmsMarketing: guest('consent', 'blank', 'withdrawn'),
      language: guest('contact', 'keep', 'a language names nobody once the rest is erased'),
      ...stamps,
    },
  }),
  entry({
    table: schema.consentTexts,
    owner: 'guest/pass',
    holds: "a version of a consent's wording",
    columns: { id: none, channel: none, text: none, language: none, createdAt: none },
  }),
  entry({
    table: schema.consentRecords,
    owner: 'guest/pass',
    holds: 'a change of a marketing consent (given or withdrawn), with the wording shown',
    columns: {
      id: none,
      barcode: none,
      channel: none,
      given: guest('consent', 'delete', 'the history goes with the registration'),
      textId: none,
      source: none,
      createdAt: none,
    },
  }),
  entry({
    table: schema.ticketShares,
    owner: 'guest/share',
    sharedWith: [TICKET_CORE, TICKETING_ORDER, DEMO, WALLET_PASSES],
    holds: 'a credit ticket shared with another guest',
    columns: {
      shareId: none,
      barcode: none,
      hashUrlHash: none,
      firstName: guest('contact', 'blank', 'a share made to the guest is stopped; one they made keeps working'),
      lastName: guest('contact', 'blank'),
      email: guest('contact', 'blank'),
      phone: guest('contact', 'blank'),
      salesforceId: guest('contact', 'blank', "the CRM's id of the person shared with"),
      language: guest('contact', 'keep', 'a language names nobody once the rest is erased'),
      createdAt: none,
      removedAt: none,
    },
  }),
  entry({
    table: schema.wristbandBindings,
    owner: 'guest/wristband',
    sharedWith: [TICKET_CORE, GATE_BAND],
    holds: 'a wristband bound to a ticket',
    columns: {
      id: none,
      wristbandBarcode: none,
      barcode: none,
      orderId: none,
      activatedAt: none,
      deactivatedAt: none,
      deactivatedBy: staff,
    },
  }),
  entry({
    table: schema.storedValueLinks,
    owner: 'guest/ticket',
    holds: "a stored-value link's key to its ticket",
    columns: { barcodeHash: none, barcode: none, createdAt: none },
  }),
  entry({
    table: schema.attractionUsage,
    owner: 'integrations/gate',
    sharedWith: [CHALLENGES, VISITS_USED],
    holds: 'a ride or attraction used with a ticket',
    columns: { id: none, barcode: none, attraction: none, location: none, timestamp: none, createdAt: none },
  }),
  entry({
    table: schema.checks,
    owner: 'integrations/pos',
    sharedWith: [CHALLENGES],
    holds: 'a food and beverage check of the point of sale',
    columns: {
      checkId: none,
      checkNumber: none,
      orderDate: none,
      terminalId: none,
      total: none,
      refunded: none,
      receiptCode: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.reservations,
    owner: 'integrations/hotel',
    sharedWith: [CHALLENGES],
    holds: 'a hotel reservation, with its guest',
    columns: {
      reservationNumber: none,
      firstName: guest('contact', 'blank'),
      lastName: guest('contact', 'blank'),
      email: guest('contact', 'blank'),
      arrival: none,
      departure: none,
      total: none,
      cancelled: none,
      ...stamps,
    },
  }),
  // ---- Loyalty ----
  entry({
    table: schema.loyaltyAccounts,
    owner: 'loyalty',
    sharedWith: [WALLET_PASSES],
    holds: 'a member of the loyalty club',
    columns: {
      id: none,
      memberNumber: guest('loyalty', 'keep', 'the ledger stays under it; nobody can look it up by the old email'),
      cardToken: guest('loyalty', 'pseudonymise', 'a new random token: the card in a wallet spends nothing'),
      email: guest('loyalty', 'pseudonymise'),
      firstName: guest('loyalty', 'pseudonymise'),
      lastName: guest('loyalty', 'pseudonymise'),
      createdBy: none,
      seasonPassId: guest('loyalty', 'blank'),
      phone: guest('loyalty', 'blank'),
      zip: guest('loyalty', 'blank'),
      language: guest('loyalty', 'keep', 'a language names nobody once the rest is erased'),
      createdAt: none,
      emailProvenAt: none,
      emailProvenBy: none,
      erasedAt: none,
      birthMonth: guest('loyalty', 'blank'),
      birthDay: guest('loyalty', 'blank'),
      referralCode: none,
    },
  }),
  entry({
    table: schema.loyaltyEmailCodes,
    owner: 'guest/loyalty',
    holds: "a loyalty email's one-time code, waiting to be entered (keyed hashes only; gone within 60 minutes)",
    columns: { emailHash: none, codeHash: none, tries: none, expiresAt: none, createdAt: none },
  }),
  entry({
    table: schema.loyaltyOrders,
    owner: 'loyalty',
    holds: "a purchase claimed by a member (the points' financial record)",
    columns: {
      id: none,
      accountId: guest('loyalty', 'keep'),
      sourceType: none,
      sourceId: none,
      reference: none,
      product: none,
      amount: none,
      purchasedAt: none,
      claimedAt: none,
      reversedAt: none,
    },
  }),
  entry({
    table: schema.loyaltyLedger,
    owner: 'loyalty',
    holds: "an entry of a member's points ledger",
    columns: {
      id: none,
      accountId: guest('loyalty', 'keep', 'the points liability stays exact'),
      points: none,
      kind: none,
      reason: none,
      loyaltyOrderId: none,
      redemptionId: none,
      lotId: none,
      campaignId: none,
      sourceType: none,
      sourceId: none,
      causedBy: none,
      staffMember: staff,
      system: none,
      createdAt: none,
    },
  }),
  entry({
    table: schema.loyaltyLots,
    owner: 'loyalty',
    holds: 'what an earn gave, what is left of it and when it expires',
    columns: {
      id: none,
      accountId: guest('loyalty', 'keep'),
      entryId: none,
      loyaltyOrderId: none,
      points: none,
      repaid: none,
      remaining: none,
      earnedAt: none,
      expiresAt: none,
      remindedAt: none,
    },
  }),
  entry({
    table: schema.loyaltyCardClock,
    owner: 'loyalty',
    holds: "how far the member cards' clock has looked",
    columns: { id: none, checkedUntil: none },
  }),
  entry({
    table: schema.loyaltyRedemptions,
    owner: 'loyalty',
    holds: 'a reward redeemed by a member',
    columns: {
      id: none,
      idempotencyKey: none,
      system: none,
      accountId: guest('loyalty', 'keep'),
      rewardId: none,
      rewardName: none,
      pointsSpent: none,
      balanceAfter: none,
      causedBy: none,
      staffMember: staff,
      redeemedAt: none,
      reversedAt: none,
    },
  }),
  entry({
    table: schema.loyaltyRedemptionLots,
    owner: 'loyalty',
    holds: 'what a redemption took from a lot (its reversal gives it back there)',
    columns: { redemptionId: none, lotId: none, points: none },
  }),
  entry({
    table: schema.loyaltyTiers,
    owner: 'loyalty',
    holds: 'a tier of the club',
    columns: { id: none, name: none, nameEs: none, pointsToReach: none, visitDaysAhead: none, active: none, ...stamps },
  }),
  entry({
    table: schema.loyaltyCampaigns,
    owner: 'loyalty',
    holds: 'a campaign of the club',
    columns: {
      id: none,
      name: none,
      nameEs: none,
      kind: none,
      multiplier: none,
      bonusPoints: none,
      validFrom: none,
      validTo: none,
      tickets: none,
      foodAndBeverage: none,
      hotel: none,
      minimumTier: none,
      budget: none,
      capPerMember: none,
      referralsPerMonth: none,
      goal: none,
      goalCount: none,
      active: none,
      budgetSpentAt: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.loyaltyBirthdayGifts,
    owner: 'loyalty',
    holds: 'a birthday gift given (once per member and year)',
    columns: {
      accountId: guest('loyalty', 'keep', 'the gift stays given once'),
      campaignId: none,
      year: none,
      points: none,
      givenAt: none,
    },
  }),
  entry({
    table: schema.loyaltyReferrals,
    owner: 'loyalty',
    holds: 'a member referred by another, pending or earned',
    columns: {
      referredId: guest('loyalty', 'keep', 'who referred whom stays with the bonuses it gave'),
      referrerId: guest('loyalty', 'keep', 'who referred whom stays with the bonuses it gave'),
      campaignId: none,
      createdAt: none,
      earnedAt: none,
    },
  }),
  entry({
    table: schema.loyaltyChallengeCompletions,
    owner: 'loyalty',
    holds: 'a challenge a member completed, with the bonus it gave',
    columns: {
      accountId: guest('loyalty', 'keep', 'a challenge stays completed once'),
      campaignId: none,
      points: none,
      completedAt: none,
    },
  }),
  entry({
    table: schema.loyaltyRewards,
    owner: 'loyalty',
    holds: 'a reward of the catalogue',
    columns: {
      id: none,
      name: none,
      description: none,
      nameEs: none,
      descriptionEs: none,
      pointsCost: none,
      active: none,
      validFrom: none,
      validTo: none,
      minimumTier: none,
      limitPerMember: none,
      ...stamps,
    },
  }),
  // ---- Pass configuration ----
  entry({
    table: schema.passCustomizations,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: 'how a kind of pass looks',
    columns: {
      passCustomizationGuid: none,
      name: none,
      backgroundColor: none,
      color: none,
      instructions: none,
      googleInstructions: none,
      instructionsEs: none,
      googleInstructionsEs: none,
      googleUri: none,
      hideBarcode: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.passCustomizationCategories,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: 'which tickets a pass customization applies to',
    columns: {
      guid: none,
      categoryId: none,
      packId: none,
      barcode: none,
      customizationName: none,
      active: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.testPasses,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: "a staff member's test pass",
    columns: { guid: none, barcode: none, description: none, data: none, ...stamps },
  }),
  entry({
    table: schema.walletExceptions,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: 'an order that skips registration or the photo',
    columns: { guid: none, orderNumber: none, skipRegistration: none, skipImage: none, ...stamps },
  }),
  entry({
    table: schema.walletItemExclusions,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: 'a merch item or pack kept out of the wallets',
    columns: {
      guid: none,
      merchItemId: none,
      merchPackId: none,
      customError: none,
      customErrorEs: none,
      validFrom: none,
      validTo: none,
      excludeNfc: none,
      active: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.wristbandMerchPackIds,
    owner: 'guest/ticket',
    sharedWith: [DEMO],
    holds: 'a merch item sold as a wristband',
    columns: { guid: none, merchItemId: none, active: none, validFrom: none, validTo: none, ...stamps },
  }),
  entry({
    table: schema.visitWindows,
    owner: 'guest/visits',
    sharedWith: [DEMO, NEXT_VISIT],
    holds: 'an entry window of an operating day and its passholder capacity',
    columns: { id: none, startsAt: none, endsAt: none, capacity: none, ...stamps },
  }),
  entry({
    table: schema.visitProducts,
    owner: 'guest/visits',
    sharedWith: [DEMO],
    holds: 'a pass product that needs a visit reservation',
    columns: { id: none, categoryId: none, product: none, ...stamps },
  }),
  entry({
    table: schema.visitBlockouts,
    owner: 'guest/visits',
    sharedWith: [DEMO],
    holds: 'a day a reservation product cannot be booked',
    columns: { id: none, day: none, categoryId: none, product: none, ...stamps },
  }),
  entry({
    table: schema.visitReservations,
    owner: 'guest/visits',
    sharedWith: [NEXT_VISIT],
    holds: "a pass's reservation of an entry window, or its place on the waitlist",
    columns: {
      id: none,
      windowId: none,
      barcode: none,
      orderId: none,
      day: none,
      status: none,
      tierRank: none,
      language: guest('contact', 'keep', 'a language names nobody once the rest is erased'),
      joinedAt: none,
      promotedAt: none,
      cancelledAt: none,
      usedAt: none,
      noShowAt: none,
    },
  }),
  entry({
    table: schema.passRulesVersion,
    owner: 'guest/ticket',
    holds: 'which version of the pass rules is committed',
    columns: { id: none, version: none, writtenBy: none },
  }),
  // ---- Wallets ----
  entry({
    table: schema.walletPasses,
    owner: 'wallet',
    sharedWith: [
      TICKET_CORE,
      {
        path: 'loyalty/loyalty-credits.repo.ts',
        reason:
          "a claim's one statement writes the points and answers whether the member holds a card (to publish the card's change only then); the loyalty core sits below the wallet and cannot ask it",
      },
    ],
    holds: 'an Apple pass or Google object issued for a ticket, a share or a member',
    columns: {
      serialNumber: none,
      barcode: none,
      shareId: none,
      loyaltyAccountId: guest('loyalty', 'keep', "the member's cards are voided"),
      voidedAt: none,
      contentHash: none,
      googleIssued: none,
      googleObjectKind: none,
      googleContentHash: none,
      googleWalletState: none,
      googleWalletStateAt: none,
      googleNotifiedAt: none,
      voidReason: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.walletPassTokens,
    owner: 'wallet',
    holds: "a pass's authentication token (its hash)",
    columns: { tokenHash: none, serialNumber: none, createdAt: none },
  }),
  entry({
    table: schema.appleDeviceRegistrations,
    owner: 'wallet',
    sharedWith: [TICKET_CORE],
    holds: 'an Apple device that holds a pass',
    columns: {
      deviceLibraryIdentifier: guest(
        'device',
        'keep',
        'a ticket stays in the wallet, updated without the person; a voided card is unregistered by its device',
      ),
      serialNumber: none,
      pushToken: guest('device', 'keep'),
      ...stamps,
    },
  }),
  entry({
    table: schema.googleWalletCallbacks,
    owner: 'wallet',
    holds: "a Google Wallet save or delete callback's nonce",
    columns: {
      nonce: none,
      eventType: none,
      classId: none,
      objectId: none,
      serialNumber: none,
      expiresAt: none,
      receivedAt: none,
    },
  }),
  entry({
    table: schema.googleWalletClasses,
    owner: 'wallet',
    holds: 'a Google Wallet class as last sent',
    columns: { classId: none, contentHash: none, updatedAt: none },
  }),
  entry({
    table: schema.walletWaves,
    owner: 'wallet',
    holds: 'a park-wide change pushed to every Apple device',
    columns: {
      id: none,
      reason: none,
      createdAt: none,
      cursor: none,
      devices: none,
      pushed: none,
      unregistered: none,
      failed: none,
      finishedAt: none,
    },
  }),
  entry({
    table: schema.rateSlots,
    owner: 'wallet',
    holds: "the next free slot of a rate every process shares (Google's requests)",
    columns: { key: none, nextAt: none },
  }),
  // ---- Photos ----
  entry({
    table: schema.photos,
    owner: 'guest/ticket',
    holds: "a season-pass holder's photo",
    columns: {
      uid: none,
      barcode: none,
      bmp: guest('photo', 'delete', 'the pass is updated without it'),
      png: guest('photo', 'delete'),
      width: none,
      height: none,
      createdAt: none,
    },
  }),
  entry({
    table: schema.photoResetRequests,
    owner: 'guest/photo',
    holds: "a guest's request to replace an approved photo",
    columns: { id: none, orderId: none, barcode: none, createdAt: none, handledAt: none },
  }),
  entry({
    table: schema.passLocks,
    owner: 'guest/ticket',
    holds: "an activated season pass locked by its holder's erasure (staff lift it)",
    columns: { barcode: none, reason: none, lockedAt: none },
  }),
  // ---- Mail and deliveries ----
  entry({
    table: schema.outbox,
    owner: 'integrations/email',
    holds: 'a mail to send or sent',
    columns: {
      id: none,
      to: guest('mail', 'delete'),
      subject: guest('mail', 'delete'),
      text: guest('mail', 'delete'),
      bodySealed: guest('mail', 'delete'),
      createdAt: none,
      sentAt: none,
      error: guest('mail', 'delete'),
    },
  }),
  entry({
    table: schema.deliveries,
    owner: 'platform/jobs',
    sharedWith: [
      {
        path: 'wallet',
        reason:
          "an Apple push's proof of delivery (the device fetched the pass) is recorded on its delivery row, and the Dashboard's wallet figures count deliveries per day, in the statements that read the wallet's own rows",
      },
      {
        path: 'integrations/email/outbox.repo.ts',
        reason:
          "a mail's retention and erasure remove its delivery rows with it, in one statement; platform sits below the mail adapter and names no feature",
      },
    ],
    holds: 'a delivery to a wallet, a device or a mailbox, with its attempts',
    columns: {
      id: none,
      target: none,
      barcode: none,
      recipient: guest('mail', 'delete', 'shown masked to staff'),
      state: none,
      attempts: none,
      lastError: none,
      queue: none,
      payload: guest('mail', 'delete'),
      jobId: none,
      sentAt: none,
      serialNumber: none,
      deviceLibraryIdentifier: guest('device', 'delete'),
      passUpdatedAt: none,
      listedAt: none,
      fetchedAt: none,
      objectVersion: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.integrationEvents,
    owner: 'integrations/events',
    sharedWith: [
      {
        path: 'platform/events.ts',
        reason:
          'the one writer: every feature records its events in its own transaction through it, and platform sits below the integrations, so the writer cannot live in the feed',
      },
    ],
    holds: "an event for the operator's systems (a registration, a share, a new member: their names and contacts)",
    columns: {
      seq: none,
      id: none,
      type: none,
      subject: none,
      data: guest('contact', 'delete'),
      system: none,
      xid: none,
      createdAt: none,
    },
  }),
  entry({
    table: schema.webhookEndpoints,
    owner: 'integrations/events/webhooks',
    holds: "an endpoint of the operator's systems that events are sent to",
    columns: {
      id: none,
      url: none,
      description: none,
      eventTypes: none,
      active: none,
      secret: none,
      previousSecret: none,
      previousSecretUntil: none,
      disabledReason: none,
      failingSince: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.webhookMessages,
    owner: 'integrations/events/webhooks',
    holds:
      'an event sent (or to send) to an endpoint: the event itself is read from integration_events, which an erasure deletes (and its messages with it)',
    columns: {
      seq: none,
      id: none,
      endpointId: none,
      eventId: none,
      type: none,
      subject: none,
      state: none,
      attempts: none,
      nextAttemptAt: none,
      lastStatus: none,
      lastLatencyMs: none,
      lastError: none,
      deliveredAt: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.webhookCursor,
    owner: 'integrations/events/webhooks',
    holds: 'how far the webhook dispatcher has read the event feed',
    columns: { id: none, xid: none, seq: none },
  }),
  entry({
    table: schema.spentPrivacyLinks,
    owner: 'guest/privacy',
    holds: "a guest's privacy link spent by an erasure (its random id)",
    columns: { linkId: none, expiresAt: none },
  }),
  entry({
    table: schema.revokedPrivacyLinks,
    owner: 'guest/privacy',
    holds: 'the privacy links of an erased email revoked (a keyed hash of the email, until its links would have expired)',
    columns: { emailHash: none, revokedAt: none, expiresAt: none },
  }),
  entry({
    table: schema.loyaltyDayFigures,
    owner: 'loyalty',
    holds: "the club's Dashboard figures of a closed operating day (counts and sums only)",
    columns: {
      day: none,
      startsAt: none,
      endsAt: none,
      tickets: none,
      foodAndBeverage: none,
      hotel: none,
      newMembers: none,
      earned: none,
      redeemed: none,
      reversed: none,
      expired: none,
      adjusted: none,
      campaigns: none,
    },
  }),
  // ---- Platform and staff ----
  entry({
    table: schema.activityCounts,
    owner: 'platform',
    holds: 'how many lookups and share links guests made on a day (counts only)',
    columns: { day: none, activity: none, count: none },
  }),
  entry({
    table: schema.serverKeys,
    owner: 'platform',
    holds: "the server's own keys (sealed)",
    columns: { name: none, value: none, createdAt: none },
  }),
  entry({
    table: schema.teamMembers,
    owner: 'staff/auth',
    holds: 'a member of the staff team',
    columns: {
      guid: none,
      firstName: staff,
      lastName: staff,
      internalId: staff,
      username: staff,
      passwordHash: staff,
      description: staff,
      accessLevel: none,
      active: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.permissions,
    owner: 'staff/auth',
    holds: 'what an access level may call',
    columns: { guid: none, name: none, api: none, method: none, minimumAccessLevel: none, active: none, ...stamps },
  }),
  entry({
    table: schema.staffSessions,
    owner: 'staff/auth',
    holds: "a staff member's session",
    columns: {
      guid: none,
      teamMemberGuid: staff,
      startTimestamp: none,
      endTimestamp: none,
      active: none,
      accessTokenHash: none,
      ...stamps,
    },
  }),
  entry({
    table: schema.auditLog,
    owner: 'staff/audit',
    holds: 'what a staff member changed',
    columns: {
      id: none,
      at: none,
      teamMemberGuid: staff,
      username: staff,
      action: none,
      resource: none,
      recordId: none,
      before: guest('audit', 'blank', "the guest's personal fields are removed from earlier entries"),
      after: guest('audit', 'blank'),
    },
  }),
  entry({
    table: schema.parkHours,
    owner: 'wallet',
    sharedWith: [DEMO],
    holds: "the park's opening hours",
    columns: { guid: none, opensAt: none, closesAt: none, ...stamps },
  }),
  entry({
    table: schema.parkLocations,
    owner: 'wallet',
    sharedWith: [DEMO],
    holds: 'a place where passes show on the lock screen',
    columns: { guid: none, name: none, latitude: none, longitude: none, relevantText: none, relevantTextEs: none, ...stamps },
  }),
  entry({
    table: schema.parkNotices,
    owner: 'wallet',
    holds: "a notice of the park's every pass shows",
    columns: { guid: none, text: none, textEs: none, ...stamps },
  }),
];

/**
 * Code that may import the whole schema (`import * as schema`), and why: it reaches a table by
 * a name it is given, never one it chooses. Any other file names the tables it imports.
 */
export const SCHEMA_WIDE: SharedWith[] = [
  {
    path: 'staff/resources/resources.repo.ts',
    reason:
      "the back office's generic tabs read and write the table a declaration names (packages/contract/src/staff-*-tabs.ts); a tab over another feature's table is that feature's choice, made in its declaration and hooks",
  },
];

/** The columns of a table, by their names in code. */
const columnsOf = (table: Table): string[] => Object.keys(getTableColumns(table));

/**
 * What the map misses of these tables: a table without an entry, a column without a class, a
 * class of a column the table does not have. Empty when every column is classified.
 */
export function unclassified(tables: Record<string, Table>, map: TableMap[] = PERSONAL_DATA): string[] {
  const problems: string[] = [];
  for (const [name, table] of Object.entries(tables)) {
    const entries = map.filter((e) => e.table === table);
    if (entries.length !== 1) {
      problems.push(`${name}: ${entries.length === 0 ? 'not in the map' : 'in the map more than once'}`);
      continue;
    }
    const classified = Object.keys(entries[0]!.columns);
    for (const column of columnsOf(table)) if (!classified.includes(column)) problems.push(`${name}.${column}: not classified`);
    for (const column of classified) if (!columnsOf(table).includes(column)) problems.push(`${name}.${column}: no such column`);
  }
  return problems;
}

/** Where docs/privacy.md holds the generated tables. */
export const DOC_MARKERS = ['<!-- personal-data-map: start (npm run docs:privacy) -->', '<!-- personal-data-map: end -->'] as const;

const ERASURE_TEXT: Record<Erasure, string> = {
  delete: 'deleted',
  blank: 'emptied',
  pseudonymise: 'replaced by a pseudonym',
  keep: 'kept, naming nobody',
};

/** A column's name in the database (createDb's casing is snake_case, unless the column names itself). */
function databaseName(table: Table, key: string): string {
  const column = getTableColumns(table)[key]!;
  return `${getTableName(table)}.${column.keyAsName ? toSnakeCase(key) : column.name}`;
}

/** The map as Markdown tables for docs/privacy.md: the guest's columns, then the staff's. */
export function personalDataMarkdown(): string {
  const guestRows: string[] = [];
  const staffRows: string[] = [];
  for (const { table, owner, holds, columns } of PERSONAL_DATA) {
    for (const [column, kind] of Object.entries(columns) as [string, ColumnClass][]) {
      const at = `\`${databaseName(table, column)}\``;
      if (kind.kind === 'guest') {
        guestRows.push(
          `| ${at} | ${holds} | ${kind.category} | ${ERASURE_TEXT[kind.erasure]}${kind.note ? `: ${kind.note}` : ''} | ${owner} |`,
        );
      } else if (kind.kind === 'staff') {
        staffRows.push(`| ${at} | ${holds} | ${owner} |`);
      }
    }
  }
  return [
    '| Column | A row is | Category | On erasure | Owner |',
    '|---|---|---|---|---|',
    ...guestRows,
    '',
    "Staff members' data (kept while they are on the team, managed in the Team tab):",
    '',
    '| Column | A row is | Owner |',
    '|---|---|---|',
    ...staffRows,
  ].join('\n');
}

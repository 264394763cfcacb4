// The member's own statement. Asking for it by email answers the same, in the same time, whether
// or not the email is a member's (membership is not told): a job looks the email up after the
// answer and mails a member whose email is proven a link signed for their account, valid 24
// hours, through the outbox and the mail job. The link's token, sent back as a bearer
// token, opens the balance and the points expiring within 30 days, the tier and the progress to
// the next one, the ledger page by page
// and the rewards catalogue with what the member can redeem now (the core's rules).
import { LOYALTY_WALLET_TOKEN, type LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import {
  LOYALTY_STATEMENT_PATH,
  LOYALTY_STATEMENT_TOKEN,
  STATEMENT_PAGE_SIZE,
  type Statement,
  type StatementEntry,
  type StatementLedgerPage,
  type StatementLinkAnswer,
} from '@boardwalk/contract/loyalty-statement';
import { STATEMENT_REFUSALS, statementMessages, type StatementRefusal } from '@boardwalk/contract/loyalty-statement-messages';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { linkIn, mailTexts } from '../../integrations/email/mail-texts.ts';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Jobs } from '../../platform/jobs/jobs.plugin.ts';
import { jobLanguage, openEmailJob, sealedEmailJob, type SealedEmailJob } from '../../platform/jobs/sealed-email-job.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { attempt, type FailureThrottle } from '../../platform/throttle.ts';
import { memberWithRewards } from '../../loyalty/loyalty-redemptions.service.ts';
import { findAccount, findAccountByEmail, findLedgerPage } from '../../loyalty/loyalty.repo.ts';
import { reversalCauseOf } from '../../loyalty/loyalty-reversals.service.ts';
import type { LoyaltyCore } from '../../loyalty/loyalty.service.ts';
import { DEFAULT_LANGUAGE, type Language } from '@boardwalk/contract/i18n/languages';
import { textIn } from '@boardwalk/contract/i18n/staff-texts';
import { findReferred, referralLink } from '../../loyalty/loyalty-referrals.service.ts';
import { challengeIn, memberChallenges } from '../../loyalty/loyalty-challenges.service.ts';
import type { Tier } from '../../loyalty/loyalty-rewards.repo.ts';

/** The statement calls' dependencies, built once when the routes register. */
export interface GuestStatement {
  core: LoyaltyCore;
  keys: Keys;
  mailer: Mailer;
  jobs: Pick<Jobs, 'send'>;
  config: Pick<Config, 'publicUrl' | 'brandName' | 'supportEmail'>;
  limits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
}
/** What the statement link's job needs: no throttle (the request counted it). */
type StatementMailer = Omit<GuestStatement, 'limits'>;

const VALID_HOURS = LOYALTY_STATEMENT_TOKEN.ttlSeconds / 3600;

export const statementLink = (config: Pick<Config, 'publicUrl'>, token: string) => `${config.publicUrl}${LOYALTY_STATEMENT_PATH}#${token}`;

function statementMail(deps: StatementMailer, account: { id: string; email: string; firstName: string }, language: Language) {
  const brand = deps.config.brandName;
  const token = deps.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, account.id, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
  const t = mailTexts(language);
  const closing = t('personalLinkClosing', { hours: VALID_HOURS, supportEmail: deps.config.supportEmail, brand });
  return {
    to: account.email,
    subject: t('statement.subject', { brand }),
    text: t('statement.text', { firstName: account.firstName, link: linkIn(statementLink(deps.config, token), language), closing }),
  };
}

/** The queue whose jobs look up the email and mail the link: the request answers before (the same time for any email). */
export const STATEMENT_LINK_QUEUE = 'loyalty-statement-link';

/**
 * POST /api/loyalty/statement-link: queues the look-up of the email (its mail job) and answers
 * the same for any email, in the same time: whether the email is a member's is decided after
 * the answer (mailStatementLink). Each request counts against the client address and against
 * the email (kept as a keyed hash).
 */
export function requestStatementLink(
  deps: GuestStatement,
  clientAddress: string,
  email: string,
  language: Language,
): Promise<StatementLinkAnswer> {
  const emailKey = deps.keys.keyedHash('loyalty-statement-email', email.trim().toLowerCase());
  return attempt([deps.limits.perAddress.of(clientAddress), deps.limits.perEmail.of(emailKey)], async () => {
    await deps.jobs.send(deps.core.db, sealedEmailJob(deps.keys, STATEMENT_LINK_QUEUE, email.trim(), language));
    return { email, validHours: VALID_HOURS };
  });
}

/** Mailed instead of the link while a member's email is not proven: no name (typed by whoever joined), no link. */
function proveFirstMail(deps: StatementMailer, email: string, language: Language) {
  const brand = deps.config.brandName;
  const t = mailTexts(language);
  return {
    to: email,
    subject: t('statement.subject', { brand }),
    text: t('statement.proveFirst', { loyaltyUrl: `${deps.config.publicUrl}/loyalty/`, supportEmail: deps.config.supportEmail, brand }),
  };
}

/**
 * The statement link job: one message for a member (the link when their email is proven, else
 * how to prove it), none for an email that is not a member's or an erased account's.
 */
export async function mailStatementLink(deps: StatementMailer, job: SealedEmailJob): Promise<void> {
  const email = openEmailJob(deps.keys, STATEMENT_LINK_QUEUE, job);
  if (!email) return;
  await deps.core.db.transaction(async (tx) => {
    const account = await findAccountByEmail(tx, email);
    if (!account || account.erasedAt) return;
    const language = jobLanguage(job);
    await deps.mailer.send(
      tx,
      account.emailProvenAt ? statementMail(deps, account, language) : proveFirstMail(deps, account.email, language),
    );
  });
}

/** 401: the statement's link refused, said in English and as a reason for the page to word. */
const linkRefused = (why: StatementRefusal) => new AppError('UNAUTHORIZED', statementMessages[why], { reason: STATEMENT_REFUSALS[why] });

/** The account a statement token names; 401 with what to do when it is missing, expired or not valid. */
function accountOfToken(keys: Keys, token: string | undefined): string {
  if (!token) throw linkRefused('tokenRequired');
  const check = keys.verifyToken(LOYALTY_STATEMENT_TOKEN.purpose, token);
  if (!check.ok) throw linkRefused(check.reason === 'expired' ? 'expired' : 'invalid');
  return check.subject;
}

/** The bearer token of an Authorization header, or undefined. */
export const bearerToken = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];

type LedgerRow = Awaited<ReturnType<typeof findLedgerPage>>['entries'][number];

/**
 * An entry as the member's page words it (in its own language, from the catalogue): the kind
 * and what it is about. The reasons the park's code records are English for staff; only guest
 * services' own words (an adjustment's reason) travel as they are, and the staff member who
 * made an entry is not named.
 */
function statementEntryOf(
  { id, createdAt, points, kind, reason, causedBy, purchase, reward, earnedAt, campaign }: LedgerRow,
  language: Language,
): StatementEntry {
  return {
    id,
    createdAt: createdAt.toISOString(),
    points,
    kind,
    purchase: purchase && { ...purchase, type: purchase.type as LoyaltyOrderType },
    reward: kind === 'redemption' || kind === 'redemption-reversal' ? reward : null,
    earnedAt: kind === 'expired' ? (earnedAt?.toISOString() ?? null) : null,
    // Staff remove a purchase without a reason of their own (the Loyalty tab's Remove).
    cause: kind !== 'reversal' && kind !== 'bonus-reversal' ? null : causedBy === 'staff' ? 'removedByStaff' : reversalCauseOf(reason),
    note: kind === 'adjustment' ? reason : null,
    campaign: campaign && textIn(campaign, 'name', language),
  };
}

async function ledgerPage(core: LoyaltyCore, accountId: string, before: number | null, language: Language): Promise<StatementLedgerPage> {
  const { entries, more } = await findLedgerPage(core.db, accountId, { before, limit: STATEMENT_PAGE_SIZE });
  return {
    entries: entries.map((entry) => statementEntryOf(entry, language)),
    nextBefore: more ? entries.at(-1)!.id : null,
  };
}

/**
 * GET /api/loyalty/statement: the member's statement with the newest page of the ledger, and a
 * wallet token for their card's buttons. A removed member's link is refused like a forged one.
 */
export async function readStatement(
  deps: Pick<GuestStatement, 'core' | 'keys'>,
  token: string | undefined,
  language: Language = DEFAULT_LANGUAGE,
  now = new Date(),
): Promise<Statement> {
  const accountId = accountOfToken(deps.keys, token);
  // Every read at once (one round on PostgreSQL's pool): the member with their tier progress and rewards, and the newest page.
  // An erased account's links are void, and an email not yet proven opens no statement.
  const [found, ledger, referred] = await Promise.all([
    memberWithRewards(deps.core.db, accountId, now),
    ledgerPage(deps.core, accountId, null, language),
    findReferred(deps.core.db, accountId),
  ]);
  if (!found || found.member.erasedAt) throw linkRefused('invalid');
  if (!found.member.emailProvenAt) throw linkRefused('unproven');
  const { member, progress, rewards } = found;
  const challenges = await memberChallenges(
    deps.core.db,
    { id: accountId, earnedForTier: progress.earned },
    { timeZone: deps.core.config.parkTimezone, now },
  );
  // Names and descriptions staff wrote, in the page's language where they wrote one.
  const tierIn = (tier: Tier | null) => tier && { name: textIn(tier, 'name', language)!, pointsToReach: tier.pointsToReach };
  return {
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    memberNumber: member.memberNumber,
    balance: member.balance,
    expiringPoints: member.expiringPoints,
    expiringAt: member.expiringAt?.toISOString() ?? null,
    tier: tierIn(progress.tier),
    pointsEarned: progress.earned,
    nextTier: tierIn(progress.next),
    ledger,
    rewards: rewards.map(({ reward, redeemableNow }) => ({
      rewardId: reward.id,
      name: textIn(reward, 'name', language)!,
      description: textIn(reward, 'description', language),
      pointsCost: reward.pointsCost,
      redeemableNow,
    })),
    walletToken: deps.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, accountId, LOYALTY_WALLET_TOKEN.ttlSeconds),
    referral: { link: referralLink(deps.core.config.publicUrl, member.referralCode), referred },
    challenges: challenges.map((challenge) => challengeIn(challenge, language)),
  };
}

/** GET /api/loyalty/statement/ledger?before=: the ledger entries older than `before`, newest first. */
export async function readStatementLedger(
  deps: Pick<GuestStatement, 'core' | 'keys'>,
  token: string | undefined,
  before: number,
  language: Language = DEFAULT_LANGUAGE,
): Promise<StatementLedgerPage> {
  const accountId = accountOfToken(deps.keys, token);
  const account = await findAccount(deps.core.db, accountId);
  if (!account || account.erasedAt) throw linkRefused('invalid');
  if (!account.emailProvenAt) throw linkRefused('unproven');
  return ledgerPage(deps.core, accountId, before, language);
}

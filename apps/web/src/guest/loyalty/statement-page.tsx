import { useEffect, useState, type ReactNode } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { useFormatter, useTranslations } from 'use-intl';
import type { Statement, StatementEntry } from '@boardwalk/contract/loyalty-statement';
import { failedWith } from '../../lib/api-client.ts';
import { useFormats } from '../../lib/format.ts';
import { forgetLinkToken, hideLinkToken, takeLinkToken } from '../../lib/link-token.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailLinkRequest } from '../../loyalty/email-link-request.tsx';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { LoyaltyWalletActions } from '../wallet/loyalty-wallet-actions.tsx';
import { rememberedEmail } from './loyalty-member.ts';
import { serverReason, useLoyaltyErrors } from './loyalty-texts.ts';
import { emailStrong } from './member-sign-in.tsx';
import { statementQuery, useStatementLink } from './statement-api.ts';
import './loyalty.css';

/** The link's token stays in this tab (a reload keeps the statement) and leaves the address bar. */
const TOKEN_KEY = 'boardwalk.loyalty.statementToken';
const forgetToken = () => forgetLinkToken(TOKEN_KEY);

/** The statement's words, and its points written in the page's language. */
function useStatementTexts() {
  const t = useTranslations('statement');
  const format = useFormatter();
  /** Whole points with a true minus sign below zero (read as "minus"). */
  const amount = (n: number) => (n < 0 ? `−${format.number(-n)}` : format.number(n));
  return {
    t,
    amount,
    points: (n: number) => t('points', { count: Math.abs(n), amount: amount(n) }),
    signed: (n: number) => (n > 0 ? `+${amount(n)}` : amount(n)),
  };
}

/** A statement or page that did not load: a network failure or a server fault. */
function useLoadError() {
  const t = useTranslations('statement');
  const describe = useRequestErrors();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  return (error: unknown) => describe(error, { networkError: t('networkError'), failure: t('failure', { supportEmail }) });
}

/** /loyalty/statement: the member's points from the emailed link (#token); without a valid link, the form that sends one. */
export function StatementPage() {
  const [token, setToken] = useState(() => takeLinkToken(TOKEN_KEY));
  useEffect(hideLinkToken, []);
  if (!token) return <StatementRequest />;
  return (
    <StatementView
      token={token}
      onRefused={() => {
        forgetToken();
        setToken(null);
      }}
    />
  );
}

/** Asks for the link by email; the answer reads the same whether or not the email is a member's. */
export function StatementRequest({ notice }: { notice?: string | undefined }) {
  const t = useTranslations('statement');
  const errors = useLoyaltyErrors();
  const request = useStatementLink();
  return (
    <EmailLinkRequest
      name="statement"
      heading={t('heading')}
      initialEmail={rememberedEmail() ?? ''}
      request={request}
      error={request.isError ? errors.member(request.error) : null}
      notice={
        notice ? (
          <p className="loyalty-note" data-testid="statement-link-refused">
            {notice}
          </p>
        ) : null
      }
      intro={t('request.intro')}
      sent={(answer) => t.rich('request.sent', { email: answer.email, hours: answer.validHours, strong: emailStrong })}
      sentHint={t('request.sentHint')}
    >
      <Link to="/loyalty/" className="btn btn-link px-0 mt-3">
        {t('request.back')}
      </Link>
    </EmailLinkRequest>
  );
}

function StatementView({ token, onRefused }: { token: string; onRefused: () => void }) {
  const t = useTranslations('statement');
  const loadError = useLoadError();
  const query = useInfiniteQuery(statementQuery(token));
  const refused = failedWith(query.error, 'UNAUTHORIZED');
  const [first, ...older] = query.data?.pages ?? [];
  // A refused link (expired, altered, member removed) is not kept for the next visit.
  useEffect(() => {
    if (refused) forgetToken();
  }, [refused]);

  if (refused) {
    // Why the link no longer opens, by the server's reason (an unknown one: not valid).
    const reason = serverReason(query.error);
    return <StatementRequest notice={t(`refused.${reason?.kind === 'statement' ? reason.key : 'invalid'}`)} />;
  }
  if (query.isPending) return <LoadingState label={t('loading')} />;
  if (!first || !('ledger' in first)) {
    return (
      <section className="panel panel--narrow" aria-labelledby="statement-error-heading">
        <PageHeading id="statement-error-heading">{t('heading')}</PageHeading>
        <LiveAlert message={loadError(query.error)} />
        <BusyButton busy={query.isFetching} busyLabel={t('loadingMore')} variant="primary" onClick={() => void query.refetch()}>
          {t('tryAgain')}
        </BusyButton>
        <Button variant="link" onClick={onRefused}>
          {t('newLink')}
        </Button>
      </section>
    );
  }
  const entries = [first.ledger.entries, ...older.map((page) => ('entries' in page ? page.entries : []))].flat();
  return (
    <section className="panel statement" aria-labelledby="statement-heading">
      <PageHeading id="statement-heading">{t('heading')}</PageHeading>
      <p className="panel__intro">
        {t.rich('member', {
          firstName: first.firstName,
          lastName: first.lastName,
          memberNumber: first.memberNumber,
          nowrap: (text) => <span className="text-nowrap">{text}</span>,
        })}
      </p>
      <Balance statement={first} />
      <TierProgress statement={first} />
      <section className="statement__section" aria-labelledby="statement-card-heading">
        <h2 id="statement-card-heading">{t('card')}</h2>
        <LoyaltyWalletActions request={{ email: first.email, walletToken: first.walletToken }} />
      </section>
      <Challenges statement={first} />
      <Rewards statement={first} />
      <Referrals statement={first} />
      <section className="statement__section" aria-labelledby="statement-history-heading">
        <h2 id="statement-history-heading">{t('history.heading')}</h2>
        {entries.length === 0 ? (
          <p>{t.rich('history.empty', { link: (text) => <Link to="/loyalty/">{text}</Link> })}</p>
        ) : (
          <ol className="statement-ledger">
            {entries.map((entry) => (
              <LedgerEntry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        <LiveAlert message={query.isFetchNextPageError ? loadError(query.error) : null} />
        {query.hasNextPage ? (
          <BusyButton
            busy={query.isFetchingNextPage}
            busyLabel={t('loadingMore')}
            variant="outline-primary"
            className="w-100"
            onClick={() => void query.fetchNextPage()}
          >
            {t('history.more')}
          </BusyButton>
        ) : null}
      </section>
    </section>
  );
}

function Balance({ statement }: { statement: Statement }) {
  const formats = useFormats();
  const { t, points } = useStatementTexts();
  const strong = (text: ReactNode) => <strong>{text}</strong>;
  return (
    <div className="statement-balance">
      <p className="statement-balance__label">{t('balance')}</p>
      <p className={`loyalty-points${statement.balance < 0 ? ' loyalty-points--negative' : ''}`}>{points(statement.balance)}</p>
      {statement.expiringPoints > 0 && statement.expiringAt ? (
        <p className="loyalty-note mb-2" data-testid="statement-expiring">
          {t.rich('expiring', { points: points(statement.expiringPoints), date: formats.date(statement.expiringAt), strong })}
        </p>
      ) : null}
      {statement.balance < 0 ? <p className="loyalty-note mb-0">{t('negative')}</p> : null}
    </div>
  );
}

function TierProgress({ statement }: { statement: Statement }) {
  const { tier, nextTier, pointsEarned } = statement;
  const { t, amount, points } = useStatementTexts();
  if (!tier && !nextTier) return null;
  const progress = Math.min(Math.max(0, pointsEarned), nextTier?.pointsToReach ?? 0);
  const toGo = (nextTier?.pointsToReach ?? 0) - pointsEarned;
  return (
    <section className="statement__section" aria-labelledby="statement-tier-heading">
      <h2 id="statement-tier-heading">{tier ? t('tier.heading', { tier: tier.name }) : t('tier.none')}</h2>
      {nextTier ? (
        <>
          <div className="progress">
            <div
              className="progress-bar bg-success"
              role="progressbar"
              aria-label={t('tier.progress', { tier: nextTier.name })}
              aria-valuenow={progress}
              aria-valuemin={0}
              aria-valuemax={nextTier.pointsToReach}
              aria-valuetext={t('tier.progressValue', { earned: points(pointsEarned), goal: points(nextTier.pointsToReach) })}
              style={{ width: `${(100 * progress) / nextTier.pointsToReach}%` }}
            />
          </div>
          <p className="mt-2 mb-0">
            {t.rich('tier.toGo', {
              earned: points(pointsEarned),
              count: Math.abs(toGo),
              toGo: amount(toGo),
              tier: nextTier.name,
              strong: (text) => <strong>{text}</strong>,
            })}
          </p>
        </>
      ) : (
        <p className="mb-0">{t('tier.top', { earned: points(pointsEarned) })}</p>
      )}
    </section>
  );
}

/** The member's referral link to share, and who joined with it. */
function Referrals({ statement }: { statement: Statement }) {
  const { t } = useStatementTexts();
  const formats = useFormats();
  const [copied, setCopied] = useState(false);
  const { link, referred } = statement.referral;
  const copy = async () => {
    await navigator.clipboard.writeText(link);
    setCopied(true);
  };
  return (
    <section className="statement__section" aria-labelledby="statement-referral-heading">
      <h2 id="statement-referral-heading">{t('referral.heading')}</h2>
      <p>{t('referral.howTo')}</p>
      <div className="input-group mb-2">
        <input
          id="statement-referral-link"
          className="form-control"
          readOnly
          value={link}
          aria-label={t('referral.link')}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-outline-primary" onClick={() => void copy()}>
          {t('referral.copy')}
        </button>
      </div>
      <div role="status" className="small text-body-secondary mb-2">
        {copied ? t('referral.copied') : null}
      </div>
      {referred.length === 0 ? (
        <p className="mb-0">{t('referral.none')}</p>
      ) : (
        <ul className="statement-referrals">
          {referred.map((r, i) => (
            <li key={i}>
              {t(r.earned ? 'referral.earned' : 'referral.pending', { firstName: r.firstName, date: formats.date(r.joinedAt) })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The challenges running now: each one's progress toward its goal, and what completing it earns (or earned) by its last day (a calendar date: read at local noon). */
function Challenges({ statement }: { statement: Statement }) {
  const { t } = useStatementTexts();
  const formats = useFormats();
  if (statement.challenges.length === 0) return null;
  return (
    <section className="statement__section" aria-labelledby="statement-challenges-heading">
      <h2 id="statement-challenges-heading">{t('challenges.heading')}</h2>
      <ul className="list-unstyled mb-0">
        {statement.challenges.map((challenge, i) => (
          <li key={i} className="mb-3">
            <strong id={`statement-challenge-${i}`}>{challenge.name}</strong>
            <div
              className="progress my-1"
              role="progressbar"
              aria-labelledby={`statement-challenge-${i}`}
              aria-valuemin={0}
              aria-valuemax={challenge.goalCount}
              aria-valuenow={challenge.progress}
            >
              <div
                className={`progress-bar${challenge.completed ? ' bg-success' : ''}`}
                style={{ width: `${(100 * challenge.progress) / challenge.goalCount}%` }}
              />
            </div>
            <div>{t(`challenges.progress.${challenge.goal}`, { progress: challenge.progress, goalCount: challenge.goalCount })}</div>
            <div className="text-body-secondary">
              {challenge.completed
                ? t('challenges.completed', { points: challenge.bonusPoints })
                : t('challenges.reward', { date: formats.date(`${challenge.validTo}T12:00:00`), points: challenge.bonusPoints })}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Rewards({ statement }: { statement: Statement }) {
  const { t, points } = useStatementTexts();
  return (
    <section className="statement__section" aria-labelledby="statement-rewards-heading">
      <h2 id="statement-rewards-heading">{t('rewards.heading')}</h2>
      {statement.rewards.length === 0 ? (
        <p>{t('rewards.none')}</p>
      ) : (
        <>
          <p>{t('rewards.howTo')}</p>
          <ul className="statement-rewards">
            {statement.rewards.map((reward) => (
              <li key={reward.rewardId} className="statement-rewards__item">
                <div>
                  <strong>{reward.name}</strong>
                  {reward.description ? <div className="text-body-secondary">{reward.description}</div> : null}
                  {reward.redeemableNow ? (
                    <div className="mt-1">
                      <Badge bg="success" className="text-wrap">
                        {t('rewards.redeemable')}
                      </Badge>
                    </div>
                  ) : null}
                </div>
                <span className="statement-rewards__cost">{points(reward.pointsCost)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** What an entry is for, in the page's language: its kind and what it is about (the server sends no words but staff's own). */
function useEntryWords() {
  const t = useTranslations('statement.history.entry');
  const formats = useFormats();
  return (entry: StatementEntry): string => {
    const { purchase: bought } = entry;
    const purchase = bought ? t('purchase', { ...bought, kind: t(`purchaseKinds.${bought.type}`) }) : '';
    switch (entry.kind) {
      case 'earn':
        return t('earn', { purchase });
      case 'reversal':
        return t('reversal', { why: entry.cause ? t(`causes.${entry.cause}`) : '', purchase });
      case 'adjustment':
        return t('adjustment', { note: entry.note ?? '' });
      case 'redemption':
        return t('redemption', { reward: entry.reward ?? '' });
      case 'redemption-reversal':
        return t('redemptionReversal', { reward: entry.reward ?? '' });
      case 'expired':
        return entry.earnedAt ? t('expired', { date: formats.date(entry.earnedAt) }) : t('expiredGivenBack');
      case 'bonus':
        return bought ? t('bonus', { campaign: entry.campaign ?? '', purchase }) : t('campaignBonus', { campaign: entry.campaign ?? '' });
      case 'bonus-reversal':
        return bought
          ? t('bonusReversal', { why: entry.cause ? t(`causes.${entry.cause}`) : '', campaign: entry.campaign ?? '', purchase })
          : t('challengeTakenBack', { campaign: entry.campaign ?? '' });
    }
  };
}

function LedgerEntry({ entry }: { entry: StatementEntry }) {
  const formats = useFormats();
  const { signed } = useStatementTexts();
  const words = useEntryWords();
  return (
    <li className="statement-ledger__entry">
      <div>
        <div>{words(entry)}</div>
        <div className="text-body-secondary small">{formats.date(entry.createdAt)}</div>
      </div>
      <span className={`statement-ledger__points${entry.points < 0 ? ' statement-ledger__points--spent' : ''}`}>
        {signed(entry.points)}
      </span>
    </li>
  );
}

import { useEffect, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { Statement, StatementEntry } from '@boardwalk/contract/loyalty-statement';
import { describeRequestError, failedWith } from '../../lib/api-client.ts';
import { useFormats } from '../../lib/format.ts';
import { forgetLinkToken, hideLinkToken, takeLinkToken } from '../../lib/link-token.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailLinkRequest } from '../../loyalty/email-link-request.tsx';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { LoyaltyWalletActions } from '../wallet/loyalty-wallet-actions.tsx';
import { rememberedEmail } from './loyalty-member.ts';
import { memberErrorMessage } from './loyalty-texts.ts';
import { statementQuery, useStatementLink } from './statement-api.ts';
import './loyalty.css';

/** The link's token stays in this tab (a reload keeps the statement) and leaves the address bar. */
const TOKEN_KEY = 'boardwalk.loyalty.statementToken';
const forgetToken = () => forgetLinkToken(TOKEN_KEY);

/** A statement or page that did not load: a network failure or a server fault. */
const loadError = (error: unknown, supportEmail: string) =>
  describeRequestError(error, {
    networkError: 'We could not reach Boardwalk. Check your connection and try again.',
    failure: `We could not load your points just now. Please try again; if this keeps happening, email ${supportEmail}.`,
  });

/** Whole points with a true minus sign below zero (read as "minus"). */
const amount = (n: number) => (n < 0 ? `−${(-n).toLocaleString('en-US')}` : n.toLocaleString('en-US'));
const points = (n: number) => `${amount(n)} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
const signed = (n: number) => (n > 0 ? `+${amount(n)}` : amount(n));

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
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const request = useStatementLink();
  return (
    <EmailLinkRequest
      name="statement"
      heading="My Points"
      initialEmail={rememberedEmail() ?? ''}
      request={request}
      error={request.isError ? memberErrorMessage(request.error, supportEmail) : null}
      notice={
        notice ? (
          <p className="loyalty-note" data-testid="statement-link-refused">
            {notice}
          </p>
        ) : null
      }
      intro="See your balance, your tier, every entry with its reason and the rewards you can redeem. Enter the email of your membership and we will email you a link."
      sent={(answer) => (
        <>
          If <strong className="text-break">{answer.email}</strong> belongs to a Brownie Points member, a link to your points is on its way.
          It works for {answer.validHours} hours.
        </>
      )}
      sentHint="Nothing after a few minutes? Check your spam folder, or make sure you used the email of your membership."
    >
      <Link to="/loyalty/" className="btn btn-link px-0 mt-3">
        Back to Brownie Points
      </Link>
    </EmailLinkRequest>
  );
}

function StatementView({ token, onRefused }: { token: string; onRefused: () => void }) {
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const query = useInfiniteQuery(statementQuery(token));
  const refused = failedWith(query.error, 'UNAUTHORIZED');
  const [first, ...older] = query.data?.pages ?? [];
  // A refused link (expired, altered, member removed) is not kept for the next visit.
  useEffect(() => {
    if (refused) forgetToken();
  }, [refused]);

  if (failedWith(query.error, 'UNAUTHORIZED')) return <StatementRequest notice={query.error.body?.message ?? undefined} />;
  if (query.isPending) return <LoadingState label="Loading your points..." />;
  if (!first || !('ledger' in first)) {
    return (
      <section className="panel panel--narrow" aria-labelledby="statement-error-heading">
        <PageHeading id="statement-error-heading">My Points</PageHeading>
        <LiveAlert message={loadError(query.error, supportEmail)} />
        <BusyButton busy={query.isFetching} busyLabel="Loading..." variant="primary" onClick={() => void query.refetch()}>
          Try Again
        </BusyButton>
        <Button variant="link" onClick={onRefused}>
          Ask for a new link
        </Button>
      </section>
    );
  }
  const entries = [first.ledger.entries, ...older.map((page) => ('entries' in page ? page.entries : []))].flat();
  return (
    <section className="panel statement" aria-labelledby="statement-heading">
      <PageHeading id="statement-heading">My Points</PageHeading>
      <p className="panel__intro">
        {first.firstName} {first.lastName} · Member number <span className="text-nowrap">{first.memberNumber}</span>
      </p>
      <Balance statement={first} />
      <TierProgress statement={first} />
      <section className="statement__section" aria-labelledby="statement-card-heading">
        <h2 id="statement-card-heading">Your Card</h2>
        <LoyaltyWalletActions request={{ email: first.email, walletToken: first.walletToken }} />
      </section>
      <Rewards statement={first} />
      <section className="statement__section" aria-labelledby="statement-history-heading">
        <h2 id="statement-history-heading">History</h2>
        {entries.length === 0 ? (
          <p>
            No points yet. <Link to="/loyalty/">Add a purchase</Link> to start earning.
          </p>
        ) : (
          <ol className="statement-ledger">
            {entries.map((entry) => (
              <LedgerEntry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        <LiveAlert message={query.isFetchNextPageError ? loadError(query.error, supportEmail) : null} />
        {query.hasNextPage ? (
          <BusyButton
            busy={query.isFetchingNextPage}
            busyLabel="Loading..."
            variant="outline-primary"
            className="w-100"
            onClick={() => void query.fetchNextPage()}
          >
            Show More
          </BusyButton>
        ) : null}
      </section>
    </section>
  );
}

function Balance({ statement }: { statement: Statement }) {
  const formats = useFormats();
  return (
    <div className="statement-balance">
      <p className="statement-balance__label">Balance</p>
      <p className={`loyalty-points${statement.balance < 0 ? ' loyalty-points--negative' : ''}`}>{points(statement.balance)}</p>
      {statement.expiringPoints > 0 && statement.expiringAt ? (
        <p className="loyalty-note mb-2" data-testid="statement-expiring">
          <strong>{points(statement.expiringPoints)}</strong> expire on <strong>{formats.date(statement.expiringAt)}</strong>. Redeem them
          before then.
        </p>
      ) : null}
      {statement.balance < 0 ? (
        <p className="loyalty-note mb-0">
          Your balance is below zero because a refund took back points you had already spent. Rewards unlock again once you earn them back.
        </p>
      ) : null}
    </div>
  );
}

function TierProgress({ statement }: { statement: Statement }) {
  const { tier, nextTier, pointsEarned } = statement;
  if (!tier && !nextTier) return null;
  const progress = Math.min(Math.max(0, pointsEarned), nextTier?.pointsToReach ?? 0);
  const toGo = (nextTier?.pointsToReach ?? 0) - pointsEarned;
  return (
    <section className="statement__section" aria-labelledby="statement-tier-heading">
      <h2 id="statement-tier-heading">Tier: {tier ? tier.name : 'none yet'}</h2>
      {nextTier ? (
        <>
          <div className="progress">
            <div
              className="progress-bar bg-success"
              role="progressbar"
              aria-label={`Progress to ${nextTier.name}`}
              aria-valuenow={progress}
              aria-valuemin={0}
              aria-valuemax={nextTier.pointsToReach}
              aria-valuetext={`${points(pointsEarned)} of ${points(nextTier.pointsToReach)}`}
              style={{ width: `${(100 * progress) / nextTier.pointsToReach}%` }}
            />
          </div>
          <p className="mt-2 mb-0">
            {points(pointsEarned)} earned in the last 365 days: {amount(toGo)} more {toGo === 1 ? 'point' : 'points'} to reach{' '}
            <strong>{nextTier.name}</strong>.
          </p>
        </>
      ) : (
        <p className="mb-0">{points(pointsEarned)} earned in the last 365 days: you have reached our highest tier.</p>
      )}
    </section>
  );
}

function Rewards({ statement }: { statement: Statement }) {
  return (
    <section className="statement__section" aria-labelledby="statement-rewards-heading">
      <h2 id="statement-rewards-heading">Rewards</h2>
      {statement.rewards.length === 0 ? (
        <p>No rewards are offered right now.</p>
      ) : (
        <>
          <p>Show your card at any till or at guest services to redeem a reward.</p>
          <ul className="statement-rewards">
            {statement.rewards.map((reward) => (
              <li key={reward.rewardId} className="statement-rewards__item">
                <div>
                  <strong>{reward.name}</strong>
                  {reward.description ? <div className="text-body-secondary">{reward.description}</div> : null}
                  {reward.redeemableNow ? (
                    <div className="mt-1">
                      <Badge bg="success" className="text-wrap">
                        Redeemable now
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

function LedgerEntry({ entry }: { entry: StatementEntry }) {
  const formats = useFormats();
  return (
    <li className="statement-ledger__entry">
      <div>
        <div>{entry.description}</div>
        <div className="text-body-secondary small">{formats.date(entry.createdAt)}</div>
      </div>
      <span className={`statement-ledger__points${entry.points < 0 ? ' statement-ledger__points--spent' : ''}`}>
        {signed(entry.points)}
      </span>
    </li>
  );
}

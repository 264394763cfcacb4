import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useParams } from 'react-router';
import { storedValueTexts, type StoredValueResponse } from '@boardwalk/contract/stored-value';
import { failedWith } from '../../lib/api-client.ts';
import { formatCredits, formatUsd } from '../../lib/format.ts';
import { LoadingState } from '../../ui/loading-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useStoredValue } from './get-stored-value.ts';
import { formatOperatingDay, formatParkTime } from './stored-value-format.ts';
import '../ticket/pass-card.css';
import './stored-value.css';

// The pass card's Code 128 graphic (its own chunk); the digits show without it.
const BarcodeGraphic = lazy(() => import('../ticket/barcode-graphic.tsx').catch(() => ({ default: () => null })));

/** /stored-value/{barcodeHash}: a Stored Value Card's balance and today's attractions. */
export default function StoredValuePage() {
  const { barcodeHash = '' } = useParams();
  const card = useStoredValue(barcodeHash);
  if (card.isPending) return <LoadingState label="Loading your card…" />;
  if (card.isError) {
    return (
      <section className="panel panel--narrow" aria-labelledby="stored-value-error-heading">
        <PageHeading id="stored-value-error-heading">{storedValueTexts.failureHeading}</PageHeading>
        <p>{storedValueTexts.failureText}</p>
        <div className="actions">
          {/* Asking again for a card the server does not know only uses up the guest's lookups. */}
          {failedWith(card.error, 'ORDER_NOT_FOUND', 'TOO_MANY_ATTEMPTS') ? (
            <Link to="/" className="btn btn-primary">
              Go to the home page
            </Link>
          ) : (
            <Button variant="primary" onClick={() => void card.refetch()}>
              Try Again
            </Button>
          )}
        </div>
      </section>
    );
  }
  return <StoredValueView card={card.data} />;
}

function StoredValueView({ card }: { card: StoredValueResponse }) {
  return (
    <section className="stored-value" aria-labelledby="stored-value-heading">
      <PageHeading id="stored-value-heading">Stored Value Card</PageHeading>
      <div className="stored-value__card">
        <dl className="stored-value__balances">
          <div>
            <dt>Credits</dt>
            <dd data-testid="stored-value-credits">{formatCredits(card.credits)}</dd>
          </div>
          <div>
            <dt>Cash</dt>
            <dd data-testid="stored-value-cash">{formatUsd(card.cash)}</dd>
          </div>
        </dl>
        <div className="pass-card__barcode stored-value__barcode">
          <span className="pass-card__barcode-label">Barcode</span>
          <div className="pass-card__barcode-graphic">
            <Suspense fallback={null}>
              <BarcodeGraphic value={card.barcode} isVoid={false} />
            </Suspense>
          </div>
          <span className="pass-card__barcode-value" data-testid="stored-value-barcode">
            {card.barcode}
          </span>
        </div>
      </div>

      <section className="stored-value__history" aria-labelledby="stored-value-today-heading">
        <h2 id="stored-value-today-heading" className="stored-value__history-title">
          Today&rsquo;s Attractions
        </h2>
        <p className="stored-value__day">{formatOperatingDay(card.today)}</p>
        {card.attractions.length > 0 ? (
          <table className="table stored-value__table" data-testid="stored-value-attractions">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Attraction</th>
                <th scope="col">Location</th>
              </tr>
            </thead>
            <tbody>
              {card.attractions.map((visit) => (
                <tr key={`${visit.timestamp} ${visit.attraction}`}>
                  <td className="stored-value__time">
                    <time dateTime={visit.timestamp}>{formatParkTime(visit.timestamp, card.timeZone)}</time>
                  </td>
                  <td>{visit.attraction}</td>
                  <td>{visit.location}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="stored-value__empty" data-testid="stored-value-empty">
            No attractions visited with this card yet today.
          </p>
        )}
        {/* The history covers only the current operating day, which starts at 2:00 AM park time. */}
        <p className="stored-value__note">
          Attraction history covers only the current operating day and resets at <span className="text-nowrap">2:00 AM</span>.
        </p>
      </section>
    </section>
  );
}

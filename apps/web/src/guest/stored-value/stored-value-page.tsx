import Button from 'react-bootstrap/Button';
import { Link, useParams } from 'react-router';
import { useFormatter, useTranslations } from 'use-intl';
import { storedValueResponse, type StoredValueResponse } from '@boardwalk/contract/stored-value';
import { failedWith } from '../../lib/api-client.ts';
import { useDeviceCopy } from '../../lib/device-copy.ts';
import { useFormats } from '../../lib/format.ts';
import { LoadingState } from '../../ui/loading-state.tsx';
import { OfflineNote } from '../../ui/offline-note.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { PassBarcode, preloadBarcodeGraphic } from '../ticket/barcode-slot.tsx';
import { useStoredValue } from './get-stored-value.ts';
import '../ticket/pass-card.css';
import './stored-value.css';

/** /stored-value/{barcodeHash}: a Stored Value Card's balance and today's attractions. */
export default function StoredValuePage() {
  const { barcodeHash = '' } = useParams();
  const card = useStoredValue(barcodeHash);
  const t = useTranslations();
  // With no network, the balance as this page last showed it (lib/device-copy.ts); a card the
  // server no longer finds is erased from the device.
  const device = useDeviceCopy(`/stored-value/${barcodeHash}`, card, {
    schema: storedValueResponse,
    shown: true,
    erases: (error) => failedWith(error, 'ORDER_NOT_FOUND'),
    prepare: preloadBarcodeGraphic,
  });
  if (card.isPending || device.pending) return <LoadingState label={t('storedValue.loading')} />;
  if (device.copy) return <StoredValueView card={device.copy.data} shownAt={device.copy.shownAt} />;
  if (card.isError) {
    return (
      <section className="panel panel--narrow" aria-labelledby="stored-value-error-heading">
        <PageHeading id="stored-value-error-heading">{t('storedValue.failureHeading')}</PageHeading>
        <p>{t('storedValue.failureText')}</p>
        <div className="actions">
          {/* Asking again for a card the server does not know only uses up the guest's lookups. */}
          {failedWith(card.error, 'ORDER_NOT_FOUND', 'TOO_MANY_ATTEMPTS') ? (
            <Link to="/" className="btn btn-primary">
              {t('common.notFound.home')}
            </Link>
          ) : (
            <Button variant="primary" onClick={() => void card.refetch()}>
              {t('storedValue.tryAgain')}
            </Button>
          )}
        </div>
      </section>
    );
  }
  return <StoredValueView card={card.data} />;
}

/** The card; shownAt when it is the device's copy, shown with no network. */
function StoredValueView({ card, shownAt }: { card: StoredValueResponse; shownAt?: string }) {
  const formats = useFormats();
  const format = useFormatter();
  const t = useTranslations('storedValue');
  return (
    <section className="stored-value" aria-labelledby="stored-value-heading">
      <PageHeading id="stored-value-heading">{t('heading')}</PageHeading>
      {shownAt ? <OfflineNote shownAt={shownAt} /> : null}
      <div className="stored-value__card">
        <dl className="stored-value__balances">
          <div>
            <dt>{t('credits')}</dt>
            <dd data-testid="stored-value-credits">{formats.credits(card.credits)}</dd>
          </div>
          <div>
            <dt>{t('cash')}</dt>
            <dd data-testid="stored-value-cash">{formats.usd(card.cash)}</dd>
          </div>
        </dl>
        <PassBarcode className="stored-value__barcode" value={card.barcode} isVoid={false} testId="stored-value-barcode" />
      </div>

      <section className="stored-value__history" aria-labelledby="stored-value-today-heading">
        <h2 id="stored-value-today-heading" className="stored-value__history-title">
          {t('todayHeading')}
        </h2>
        <p className="stored-value__day">
          {/* A calendar date: no zone moves it. */}
          {format.dateTime(new Date(`${card.today}T12:00:00Z`), { timeZone: 'UTC', dateStyle: 'full' })}
        </p>
        {card.attractions.length > 0 ? (
          <table className="table stored-value__table" data-testid="stored-value-attractions">
            <thead>
              <tr>
                <th scope="col">{t('time')}</th>
                <th scope="col">{t('attraction')}</th>
                <th scope="col">{t('location')}</th>
              </tr>
            </thead>
            <tbody>
              {card.attractions.map((visit) => (
                <tr key={`${visit.timestamp} ${visit.attraction}`}>
                  <td className="stored-value__time">
                    <time dateTime={visit.timestamp}>
                      {format.dateTime(new Date(visit.timestamp), { timeZone: card.timeZone, hour: 'numeric', minute: '2-digit' })}
                    </time>
                  </td>
                  <td>{visit.attraction}</td>
                  <td>{visit.location}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="stored-value__empty" data-testid="stored-value-empty">
            {t('empty')}
          </p>
        )}
        {/* The history covers only the current operating day, which starts at 2:00 AM park time. */}
        <p className="stored-value__note">{t.rich('resets', { nowrap: (text) => <span className="text-nowrap">{text}</span> })}</p>
      </section>
    </section>
  );
}

// /privacy/manage#<token>: what is held about the link's email, grouped, with "Download my data"
// (the JSON document) and "Delete my data" (after a confirmation saying what goes and what
// stays). The link's token stays in this tab (a reload keeps the page) and leaves the address
// bar; a refused link (expired, not valid, already used to delete) leads back to the request.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { PrivacyExport } from '@boardwalk/contract/privacy';
import { useTranslations } from 'use-intl';
import { failedWith } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';
import { useFormats } from '../../lib/format.ts';
import { forgetLinkToken, hideLinkToken, takeLinkToken } from '../../lib/link-token.ts';
import { saveJson } from '../../lib/save-json.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { linkRefusal, personalDataQuery, useEraseOwnData } from './privacy-api.ts';
import { PrivacyRequestPage } from './privacy-request-page.tsx';

const TOKEN_KEY = 'boardwalk.privacy.token';

type Words = ReturnType<typeof useTranslations<'privacy'>>;

/** The kinds of data held, in the order the page lists them (privacy.groups). */
const GROUPS = [
  'tickets',
  'consents',
  'sharesMade',
  'sharesReceived',
  'photos',
  'wristbands',
  'visitReservations',
  'loyalty',
  'hotelReservations',
  'mails',
  'wallet',
] as const;

/** Each kind of data held, in a guest's words: a heading and one line per item. */
function groups(doc: PrivacyExport, t: Words, day: (iso: string) => string): { title: string; lines: string[] }[] {
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  const lines: Record<(typeof GROUPS)[number], string[]> = {
    tickets: doc.tickets.map((ticket) =>
      t('lines.ticket', {
        ...ticket,
        roles: ticket.roles.length ? ticket.roles.map((role) => t(`lines.roles.${role}`)).join(', ') : t('lines.roles.none'),
      }),
    ),
    consents: doc.consents.map(
      (c) =>
        t('lines.consent', { channel: c.channel, given: yes(c.given), barcode: c.barcode }) +
        c.history.map((h) => t('lines.consentChange', { given: yes(h.given), date: day(h.at) })).join(''),
    ),
    sharesMade: doc.sharesMade.map((s) =>
      t('lines.shareMade', { barcode: s.barcode, name: `${s.sharedWith.firstName} ${s.sharedWith.lastName}` }).trim(),
    ),
    sharesReceived: doc.sharesReceived.map((s) =>
      t('lines.shareReceived', { barcode: s.barcode, date: day(s.createdAt), stopped: yes(Boolean(s.stoppedAt)) }),
    ),
    photos: doc.photos.map((p) => t('lines.photo', { barcode: p.barcode, date: day(p.uploadedAt) })),
    wristbands: doc.wristbands.map((w) => t('lines.wristband', { wristband: w.wristbandBarcode, barcode: w.barcode })),
    visitReservations: doc.visitReservations.map((v) =>
      t('lines.visitReservation', { barcode: v.barcode, date: day(v.startsAt), status: v.status }),
    ),
    loyalty: doc.loyalty.map((a) => t('lines.loyalty', { memberNumber: a.memberNumber, points: a.balance, entries: a.ledger.length })),
    hotelReservations: doc.hotelReservations.map((r) =>
      t('lines.hotelReservation', { number: r.reservationNumber, arrival: r.arrival, departure: r.departure }),
    ),
    mails: doc.mails.map((m) => t('lines.mail', { subject: m.subject, date: day(m.createdAt) })),
    wallet: doc.wallet.map((w) => t('lines.wallet', { pass: w.pass, barcode: w.barcode ?? '', devices: w.appleDevices })),
  };
  return GROUPS.map((key) => ({ title: t(`groups.${key}`), lines: lines[key] })).filter((group) => group.lines.length > 0);
}

export function PrivacyManagePage() {
  const [token] = useState(() => takeLinkToken(TOKEN_KEY));
  useEffect(hideLinkToken, []);
  return token ? <PersonalData token={token} /> : <PrivacyRequestPage />;
}

function PersonalData({ token }: { token: string }) {
  const formats = useFormats();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const query = useQuery(personalDataQuery(token));
  const erase = useEraseOwnData(token);
  const [confirming, setConfirming] = useState(false);
  const t = useTranslations('privacy');
  const describe = useRequestErrors();
  const refused = failedWith(query.error, 'UNAUTHORIZED') ? linkRefusal(query.error.body?.reason) : null;
  useEffect(() => {
    if (refused !== null || erase.isSuccess) forgetLinkToken(TOKEN_KEY);
  }, [refused, erase.isSuccess]);

  if (erase.isSuccess) {
    return (
      <section className="panel panel--narrow" aria-labelledby="privacy-deleted-heading">
        <PageHeading id="privacy-deleted-heading">{t('deleted.heading')}</PageHeading>
        <p className="panel__intro" role="status">
          {t('deleted.text')}
        </p>
        {erase.data.orderIds.length > 0 ? <p>{t('deleted.orders', { orders: erase.data.orderIds.join(', '), supportEmail })}</p> : null}
      </section>
    );
  }
  if (refused !== null) return <PrivacyRequestPage refused={refused} />;
  if (query.isPending) return <LoadingState label={t('loading')} />;
  if (query.isError) {
    return (
      <section className="panel panel--narrow" aria-labelledby="privacy-error-heading">
        <PageHeading id="privacy-error-heading">{t('heading')}</PageHeading>
        <LiveAlert message={describe(query.error, { networkError: t('networkError'), failure: t('loadFailed', { supportEmail }) })} />
        <Button onClick={() => void query.refetch()}>{t('tryAgain')}</Button>
      </section>
    );
  }
  const doc = query.data;
  const held = groups(doc, t, formats.date);
  return (
    <section className="panel" aria-labelledby="privacy-data-heading">
      <PageHeading id="privacy-data-heading">{t('heading')}</PageHeading>
      <p className="panel__intro">
        {t.rich('intro', { email: doc.query.email ?? '', strong: (text) => <strong className="text-break">{text}</strong> })}
      </p>
      {held.length === 0 ? (
        <p role="status">{t('nothing')}</p>
      ) : (
        held.map((group) => (
          <section key={group.title} aria-label={group.title} className="privacy-group">
            <h2 className="h6 mb-1">{group.title}</h2>
            <ul className="mb-3">
              {group.lines.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </section>
        ))
      )}
      <div className="d-grid gap-2 d-sm-flex">
        <Button variant="primary" onClick={() => saveJson(doc, `my-data-${doc.exportedAt.slice(0, 10)}.json`)}>
          {t('download')}
        </Button>
        {held.length > 0 ? (
          <Button variant="outline-danger" onClick={() => setConfirming(true)}>
            {t('delete')}
          </Button>
        ) : null}
      </div>
      {confirming ? (
        <Modal show onHide={() => !erase.isPending && setConfirming(false)} aria-labelledby="privacy-delete-title" centered>
          <Modal.Header closeButton={!erase.isPending} closeLabel={t('confirm.close')}>
            <Modal.Title id="privacy-delete-title" as="h2" className="h5">
              {t('confirm.heading')}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <LiveAlert
              message={
                erase.isError
                  ? failedWith(erase.error, 'UNAUTHORIZED')
                    ? t(`refused.${linkRefusal(erase.error.body?.reason)}`)
                    : describe(erase.error, { networkError: t('networkError'), failure: t('confirm.failure', { supportEmail }) })
                  : null
              }
            />
            <p>{t('confirm.goes')}</p>
            <p className="mb-0">{t('confirm.kept')}</p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={() => setConfirming(false)} disabled={erase.isPending}>
              {t('confirm.keep')}
            </Button>
            <BusyButton variant="danger" busy={erase.isPending} busyLabel={t('confirm.busy')} onClick={() => erase.mutate()}>
              {t('confirm.yes')}
            </BusyButton>
          </Modal.Footer>
        </Modal>
      ) : null}
    </section>
  );
}

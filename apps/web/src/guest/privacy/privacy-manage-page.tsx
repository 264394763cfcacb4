// /privacy/manage#<token>: what is held about the link's email, grouped, with "Download my data"
// (the JSON document) and "Delete my data" (after a confirmation saying what goes and what
// stays). The link's token stays in this tab (a reload keeps the page) and leaves the address
// bar; a refused link (expired, not valid, already used to delete) leads back to the request.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { PrivacyExport } from '@boardwalk/contract/privacy';
import { describeRequestError, failedWith } from '../../lib/api-client.ts';
import { useFormats } from '../../lib/format.ts';
import { forgetLinkToken, hideLinkToken, takeLinkToken } from '../../lib/link-token.ts';
import { saveJson } from '../../lib/save-json.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { personalDataQuery, useEraseOwnData } from './privacy-api.ts';
import { PrivacyRequestPage } from './privacy-request-page.tsx';

const TOKEN_KEY = 'boardwalk.privacy.token';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Each kind of data held, in a guest's words: a heading and one line per item. */
function groups(doc: PrivacyExport, day: (iso: string) => string): { title: string; lines: string[] }[] {
  return [
    {
      title: 'Tickets',
      lines: doc.tickets.map((t) => `${t.product}, order ${t.orderId}, barcode ${t.barcode} (${t.roles.join(', ') || 'yours'})`),
    },
    {
      title: 'Marketing consents',
      lines: doc.consents.map(
        (c) =>
          `${c.channel === 'sms' ? 'Text messages' : 'Email news'}: ${c.given ? 'yes' : 'no'} (ticket ${c.barcode})` +
          c.history.map((h) => `; ${h.given ? 'given' : 'withdrawn'} ${day(h.at)}`).join(''),
      ),
    },
    {
      title: 'Tickets you shared',
      lines: doc.sharesMade.map((s) => `${s.barcode} with ${s.sharedWith.firstName} ${s.sharedWith.lastName}`.trim()),
    },
    {
      title: 'Tickets shared with you',
      lines: doc.sharesReceived.map((s) => `${s.barcode}, since ${day(s.createdAt)}${s.stoppedAt ? ' (stopped)' : ''}`),
    },
    { title: 'Photos', lines: doc.photos.map((p) => `Season pass photo of ${p.barcode}, ${day(p.uploadedAt)}`) },
    { title: 'Wristbands', lines: doc.wristbands.map((w) => `${w.wristbandBarcode} on ${w.barcode}`) },
    {
      title: 'Brownie points',
      lines: doc.loyalty.map(
        (a) => `Member ${a.memberNumber}: ${count(a.balance, 'point')}, ${count(a.ledger.length, 'entry', 'entries')}`,
      ),
    },
    { title: 'Hotel stays', lines: doc.hotelReservations.map((r) => `Reservation ${r.reservationNumber}, ${r.arrival} to ${r.departure}`) },
    { title: 'Emails we sent you', lines: doc.mails.map((m) => `${m.subject}, ${day(m.createdAt)}`) },
    {
      title: 'Passes in your wallet',
      lines: doc.wallet.map(
        (w) => `${w.pass === 'member' ? 'Member card' : `Pass ${w.barcode ?? ''}`}: Apple Wallet on ${count(w.appleDevices, 'device')}`,
      ),
    },
  ].filter((group) => group.lines.length > 0);
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
  const refused = failedWith(query.error, 'UNAUTHORIZED') ? (query.error.body?.message ?? '') : null;
  useEffect(() => {
    if (refused !== null || erase.isSuccess) forgetLinkToken(TOKEN_KEY);
  }, [refused, erase.isSuccess]);

  if (erase.isSuccess) {
    return (
      <section className="panel panel--narrow" aria-labelledby="privacy-deleted-heading">
        <PageHeading id="privacy-deleted-heading">Your Data Was Deleted</PageHeading>
        <p className="panel__intro" role="status">
          Your names, email, phone, photos and marketing consents are gone, and shares made to you are stopped. Your orders and tickets stay
          as purchase records without your name; a ticket that is still valid still works.
        </p>
        {erase.data.orderIds.length > 0 ? (
          <p>
            Your tickets came from our ticketing system under order {erase.data.orderIds.join(', ')}. If you want them erased there too,
            email {supportEmail}.
          </p>
        ) : null}
      </section>
    );
  }
  if (refused !== null) return <PrivacyRequestPage notice={refused || undefined} />;
  if (query.isPending) return <LoadingState label="Loading your data..." />;
  if (query.isError) {
    return (
      <section className="panel panel--narrow" aria-labelledby="privacy-error-heading">
        <PageHeading id="privacy-error-heading">Your Data</PageHeading>
        <LiveAlert
          message={describeRequestError(query.error, {
            networkError: 'We could not reach the server. Check your connection and try again.',
            failure: `We could not load your data just now. Please try again; if this keeps happening, email ${supportEmail}.`,
          })}
        />
        <Button onClick={() => void query.refetch()}>Try Again</Button>
      </section>
    );
  }
  const doc = query.data;
  const held = groups(doc, formats.date);
  return (
    <section className="panel" aria-labelledby="privacy-data-heading">
      <PageHeading id="privacy-data-heading">Your Data</PageHeading>
      <p className="panel__intro">
        What we hold about <strong className="text-break">{doc.query.email}</strong>.
      </p>
      {held.length === 0 ? (
        <p role="status">We hold nothing about this email.</p>
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
          Download My Data
        </Button>
        {held.length > 0 ? (
          <Button variant="outline-danger" onClick={() => setConfirming(true)}>
            Delete My Data
          </Button>
        ) : null}
      </div>
      {confirming ? (
        <Modal show onHide={() => !erase.isPending && setConfirming(false)} aria-labelledby="privacy-delete-title" centered>
          <Modal.Header closeButton={!erase.isPending}>
            <Modal.Title id="privacy-delete-title" as="h2" className="h5">
              Delete Your Data?
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <LiveAlert
              message={
                erase.isError
                  ? failedWith(erase.error, 'UNAUTHORIZED')
                    ? (erase.error.body?.message ?? null)
                    : describeRequestError(erase.error, {
                        networkError: 'We could not reach the server. Check your connection and try again.',
                        failure: `We could not delete your data just now. Please try again, or email ${supportEmail}.`,
                      })
                  : null
              }
            />
            <p>
              This deletes your names, email, phone, photos and marketing consents, and stops tickets shared with you. It cannot be undone.
            </p>
            <p className="mb-0">
              Kept: your orders and tickets as purchase records without your name (a ticket that is still valid still works), and your
              Brownie points under your member number, which no one can look up by your email any more.
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={() => setConfirming(false)} disabled={erase.isPending}>
              Keep My Data
            </Button>
            <BusyButton variant="danger" busy={erase.isPending} busyLabel="Deleting..." onClick={() => erase.mutate()}>
              Yes, Delete
            </BusyButton>
          </Modal.Footer>
        </Modal>
      ) : null}
    </section>
  );
}

// What is held about a person, grouped (tickets, consents, shares, photos, season pass locks,
// wristbands, visit reservations, loyalty, hotel stays, mails, wallet passes), with Download for
// the same as one JSON file, Erase for a member who may erase, and Lift Lock on a locked season
// pass for a member who may lift locks.
import { useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { passLockLifted, type PrivacyExport } from '@boardwalk/contract/privacy';
import { PRIVACY } from '@boardwalk/contract/staff-operations-tabs';
import { saveJson } from '../../lib/save-json.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { StaffTable } from '../resources/staff-table.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : '–');
const person = (c: { firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null) =>
  c ? [[c.firstName, c.lastName].filter(Boolean).join(' '), c.email, c.phone].filter(Boolean).join(', ') : '–';

/** A section of the document: its heading with the count, and its table (or a line saying there is none). */
function Section({ id, title, head, rows }: { id: string; title: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <section aria-labelledby={`privacy-${id}`} className="staff-privacy__section">
      <h4 id={`privacy-${id}`} className="h6">
        {title} <span className="text-body-secondary">({rows.length})</span>
      </h4>
      {rows.length === 0 ? (
        <p className="small text-body-secondary">None held.</p>
      ) : (
        <StaffTable label={title} columns={head} striped className="staff-privacy__table">
          {rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((cell, j) => (
                <td key={j}>{cell}</td>
              ))}
            </tr>
          ))}
        </StaffTable>
      )}
    </section>
  );
}

/** What became of a visit reservation, in staff's words. */
const VISIT_STATUSES: Record<PrivacyExport['visitReservations'][number]['status'], string> = {
  booked: 'Booked',
  waitlisted: 'Waitlisted',
  cancelled: 'Cancelled',
  used: 'Used',
  no_show: 'No-show',
};

/** Why a pass is locked, in staff's words. */
const LOCK_REASONS: Record<PrivacyExport['passLocks'][number]['reason'], string> = {
  erasure: "Its holder's data was erased: the photo the gate checks is gone. Check the guest's identity before lifting.",
};

/** Lift Lock: the pass takes a new photo and name again (audited). */
function LiftLock({ barcode }: { barcode: string }) {
  const handleError = useStaffErrorHandler();
  const [message, setMessage] = useState<string | null>(null);
  const lift = useMutation({
    mutationFn: async () =>
      (await staffRequest(PRIVACY.liftPassLock.api, { method: 'POST', body: { barcode }, schema: passLockLifted })).data,
    onError: (error) => setMessage(handleError(error)),
  });
  if (lift.isSuccess) return <span role="status">Lifted: the guest can put a new photo and name on the pass.</span>;
  return (
    <>
      <BusyButton size="sm" variant="outline-primary" busy={lift.isPending} busyLabel="Lifting..." onClick={() => lift.mutate()}>
        Lift Lock
      </BusyButton>
      {message ? <span className="text-danger ms-2">{message}</span> : null}
    </>
  );
}

export function PersonalData({ doc, onErase, canLift }: { doc: PrivacyExport; onErase: (() => void) | undefined; canLift: boolean }) {
  const total = doc.tickets.length + doc.sharesReceived.length + doc.loyalty.length + doc.hotelReservations.length + doc.mails.length;
  return (
    <section aria-labelledby="privacy-found" className="staff-privacy__found">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h3 id="privacy-found" className="h5 mb-0 me-auto">
          {total === 0 ? 'Nothing is held about this person' : 'Held about this person'}
        </h3>
        <Button variant="outline-primary" onClick={() => saveJson(doc, `privacy-export-${doc.exportedAt.slice(0, 10)}.json`)}>
          Download JSON
        </Button>
        {onErase && total > 0 ? (
          <Button variant="outline-danger" onClick={onErase}>
            Erase...
          </Button>
        ) : null}
      </div>
      <Section
        id="tickets"
        title="Tickets"
        head={['Order', 'Barcode', 'Product', 'As', 'Registration']}
        rows={doc.tickets.map((t) => [t.orderId, t.barcode, t.product, t.roles.join(', ') || '–', person(t.registration)])}
      />
      <Section
        id="consents"
        title="Marketing consents"
        head={['Barcode', 'Channel', 'State', 'History']}
        rows={doc.consents.map((c) => [
          c.barcode,
          c.channel === 'sms' ? 'SMS' : 'Email',
          c.given ? 'Given' : 'Not given',
          c.history.map((h) => `${h.given ? 'Given' : 'Withdrawn'} ${at(h.at)} (${h.source})`).join('; ') || '–',
        ])}
      />
      <Section
        id="shares-made"
        title="Shares made"
        head={['Barcode', 'Shared with', 'Shared', 'Stopped']}
        rows={doc.sharesMade.map((s) => [s.barcode, person(s.sharedWith), at(s.createdAt), at(s.stoppedAt)])}
      />
      <Section
        id="shares-received"
        title="Shares received"
        head={['Barcode', 'As', 'Shared', 'Stopped']}
        rows={doc.sharesReceived.map((s) => [s.barcode, person(s.person), at(s.createdAt), at(s.stoppedAt)])}
      />
      <Section
        id="photos"
        title="Photos"
        head={['Barcode', 'Photo', 'Uploaded']}
        rows={doc.photos.map((p) => [
          p.barcode,
          <img key="photo" src={`data:image/png;base64,${p.png}`} alt={`Photo of ticket ${p.barcode}`} width={64} />,
          at(p.uploadedAt),
        ])}
      />
      <Section
        id="pass-locks"
        title="Season pass locks"
        head={['Barcode', 'Why', 'Since', '']}
        rows={doc.passLocks.map((l) => [
          l.barcode,
          LOCK_REASONS[l.reason],
          at(l.lockedAt),
          canLift ? <LiftLock key="lift" barcode={l.barcode} /> : 'Ask a member who may lift locks',
        ])}
      />
      <Section
        id="wristbands"
        title="Wristbands"
        head={['Wristband', 'Barcode', 'Activated', 'Deactivated']}
        rows={doc.wristbands.map((w) => [w.wristbandBarcode, w.barcode, at(w.activatedAt), at(w.deactivatedAt)])}
      />
      <Section
        id="visit-reservations"
        title="Visit reservations"
        head={['Barcode', 'Entry window', 'Status', 'Made']}
        rows={doc.visitReservations.map((v) => [v.barcode, `${at(v.startsAt)} to ${at(v.endsAt)}`, VISIT_STATUSES[v.status], at(v.madeAt)])}
      />
      <Section
        id="loyalty"
        title="Loyalty accounts"
        head={['Member', 'Name', 'Email', 'Balance', 'Ledger entries', 'Claims', 'Redemptions', 'Joined']}
        rows={doc.loyalty.map((a) => [
          a.memberNumber,
          `${a.firstName} ${a.lastName}`,
          a.email,
          a.balance.toLocaleString('en-US'),
          a.ledger.length,
          a.claims.length,
          a.redemptions.length,
          at(a.joinedAt),
        ])}
      />
      <Section
        id="hotel"
        title="Hotel reservations"
        head={['Reservation', 'Guest', 'Arrival', 'Departure']}
        rows={doc.hotelReservations.map((r) => [r.reservationNumber, person({ ...r, phone: null }), r.arrival, r.departure])}
      />
      <Section
        id="mails"
        title="Mails"
        head={['To', 'Subject', 'Written', 'Sent']}
        rows={doc.mails.map((m) => [m.to, m.subject, at(m.createdAt), at(m.sentAt)])}
      />
      <Section
        id="wallet"
        title="Wallet passes"
        head={['Pass', 'Barcode', 'Apple devices', 'First added', 'Google Wallet']}
        rows={doc.wallet.map((w) => [w.pass, w.barcode ?? '–', w.appleDevices, at(w.firstAddedAt), w.googleState ?? '–'])}
      />
    </section>
  );
}

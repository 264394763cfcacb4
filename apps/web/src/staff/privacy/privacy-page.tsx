// The Privacy tab: find a person by email, phone or barcode, or by name with an order id, a
// barcode or the order's date (a ticket holder with no email or phone), and see everything held about them,
// grouped (tickets, consents, shares, photos, wristbands, loyalty, hotel stays, mails, wallet
// passes), with Download for the same as one JSON file. Each Find is one audited export; the
// download saves the document already shown, so it is not asked for (nor audited) twice. A
// member holding Privacy Erase erases it all after a confirmation that names what goes and
// what is kept; the answer lists the orders to erase in the ticketing system too. An activated
// season pass whose holder was erased is locked (no new photo or name): the Season pass locks
// section says why and since when, and a member holding Privacy Lift Pass Lock lifts it.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import {
  passLockLifted,
  privacyErasure,
  privacyExport,
  privacyQuery,
  type PrivacyErasure,
  type PrivacyExport,
} from '@boardwalk/contract/privacy';
import { PRIVACY } from '@boardwalk/contract/staff-resources';
import { saveJson } from '../../lib/save-json.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ScrollRegion } from '../resources/scroll-region.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';

const KINDS = {
  email: { label: 'Email', hint: 'The address as the guest gave it', input: 'email' },
  phone: { label: 'Phone', hint: 'Any formatting; matched by its last 10 digits', input: 'tel' },
  barcode: { label: 'Barcode', hint: 'A ticket or pass barcode: finds its guest', input: 'text' },
  name: { label: 'Name', hint: '', input: 'text' },
} as const;
type Kind = keyof typeof KINDS;

/** What narrows a search by name to the tickets of one person. */
const SCOPES = {
  orderId: { label: 'Order ID', hint: 'The 8-digit order id', input: 'text' },
  barcode: { label: 'Barcode', hint: "The holder's ticket or pass barcode", input: 'text' },
  orderDate: { label: 'Order Date', hint: 'The day the order was placed (UTC)', input: 'date' },
} as const;
type Scope = keyof typeof SCOPES;

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : '–');
const person = (c: { firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null) =>
  c ? [[c.firstName, c.lastName].filter(Boolean).join(' '), c.email, c.phone].filter(Boolean).join(', ') : '–';

/** A section of the document: its heading with the count, and its table (or a line saying there is none). */
function Section({ id, title, count, children }: { id: string; title: string; count: number; children: ReactNode }) {
  return (
    <section aria-labelledby={`privacy-${id}`} className="staff-privacy__section">
      <h4 id={`privacy-${id}`} className="h6">
        {title} <span className="text-body-secondary">({count})</span>
      </h4>
      {count === 0 ? <p className="small text-body-secondary">None held.</p> : <ScrollRegion label={title}>{children}</ScrollRegion>}
    </section>
  );
}

function Rows({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  return (
    <Table size="sm" striped className="staff-privacy__table">
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, i) => (
          <tr key={i}>
            {cells.map((cell, j) => (
              <td key={j}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What an erasure of this document's person removes and what it keeps, in the confirmation's words. */
function erasureSummary(doc: PrivacyExport) {
  const goes = [
    doc.tickets.length > 0 &&
      `Their name, email and phone on ${plural(doc.tickets.length, 'ticket')} and the orders they bought, and on their registrations (marketing consents withdrawn).`,
    doc.sharesReceived.length > 0 && `${plural(doc.sharesReceived.length, 'share')} made to them: stopped, their links no longer open.`,
    doc.photos.length > 0 && `${plural(doc.photos.length, 'photo')}: deleted, and removed from the pass.`,
    doc.loyalty.length > 0 &&
      `Their loyalty ${doc.loyalty.length === 1 ? 'account' : 'accounts'} (${doc.loyalty.map((a) => a.memberNumber).join(', ')}): name, email, phone and zip replaced; member cards voided in the wallets.`,
    doc.hotelReservations.length > 0 && `Names and email on ${plural(doc.hotelReservations.length, 'hotel reservation')}.`,
    doc.mails.length > 0 && `${plural(doc.mails.length, 'mail')} sent to them.`,
  ].filter((line): line is string => typeof line === 'string');
  const kept = [
    'Orders and tickets stay (financial records of the ticketing system); a ticket that is still valid stays valid, and its pass is updated without their name and photo.',
    doc.loyalty.length > 0 && 'The points ledger stays under the member number: the points liability stays exact.',
    doc.sharesMade.length > 0 && 'Shares they made keep working for the people they were made to.',
    'An activated season pass of theirs is locked: no new photo or name goes on it until staff lift the lock here.',
  ].filter((line): line is string => typeof line === 'string');
  return { goes, kept };
}

function EraseDialog({ doc, onClose, onErased }: { doc: PrivacyExport; onClose: () => void; onErased: (result: PrivacyErasure) => void }) {
  const handleError = useStaffErrorHandler();
  const [message, setMessage] = useState<string | null>(null);
  const erase = useMutation({
    mutationFn: async () => (await staffRequest(PRIVACY.erase.api, { method: 'POST', body: doc.query, schema: privacyErasure })).data,
    onSuccess: onErased,
    onError: (error) => setMessage(handleError(error)),
  });
  const { goes, kept } = erasureSummary(doc);
  const close = () => !erase.isPending && onClose();
  const { query } = doc;
  const who =
    query.firstName !== undefined
      ? `${query.firstName} ${query.lastName ?? ''}`
      : (query.email ?? query.phone ?? `the guest of ${query.barcode ?? ''}`);
  return (
    <Modal show onHide={close} aria-labelledby="privacy-erase-title" className="staff-modal">
      <Modal.Header>
        <Modal.Title id="privacy-erase-title" as="h2" className="h5">
          Erase Personal Data
        </Modal.Title>
        <button type="button" className="btn-close" aria-label="Close" onClick={close} disabled={erase.isPending} />
      </Modal.Header>
      <Modal.Body>
        <div role="alert" aria-atomic="true">
          {message ? <div className="alert alert-danger">{message}</div> : null}
        </div>
        <p>
          Erase everything held about <strong className="text-break">{who}</strong>? This cannot be undone.
        </p>
        <h3 className="h6">Erased</h3>
        <ul>
          {goes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <h3 className="h6">Kept</h3>
        <ul className="mb-0">
          {kept.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={close} disabled={erase.isPending}>
          Cancel
        </Button>
        <BusyButton variant="danger" busy={erase.isPending} busyLabel="Erasing..." onClick={() => erase.mutate()}>
          Yes, Erase
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}

function Erased({ result }: { result: PrivacyErasure }) {
  const counts = Object.entries(result.erased).filter(([, n]) => n > 0);
  if (!result.held) {
    return (
      <Alert variant="secondary" className="staff-privacy__erased">
        Nothing was held about this person: nothing was erased.
      </Alert>
    );
  }
  return (
    <Alert variant="success" className="staff-privacy__erased">
      <h3 className="h6">Personal data erased</h3>
      <ul className="mb-2">
        {counts.map(([category, n]) => (
          <li key={category}>
            {category}: {n}
          </li>
        ))}
      </ul>
      {result.orderIds.length > 0 ? (
        <p className="mb-0">
          Erase the guest in the ticketing system too, or its next feed of these orders brings the names back:{' '}
          <strong>{result.orderIds.join(', ')}</strong>.
        </p>
      ) : null}
    </Alert>
  );
}

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

function PersonalData({ doc, onErase, canLift }: { doc: PrivacyExport; onErase: (() => void) | undefined; canLift: boolean }) {
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
      <Section id="tickets" title="Tickets" count={doc.tickets.length}>
        <Rows
          head={['Order', 'Barcode', 'Product', 'As', 'Registration']}
          rows={doc.tickets.map((t) => [t.orderId, t.barcode, t.product, t.roles.join(', ') || '–', person(t.registration)])}
        />
      </Section>
      <Section id="consents" title="Marketing consents" count={doc.consents.length}>
        <Rows
          head={['Barcode', 'Channel', 'State', 'History']}
          rows={doc.consents.map((c) => [
            c.barcode,
            c.channel === 'sms' ? 'SMS' : 'Email',
            c.given ? 'Given' : 'Not given',
            c.history.map((h) => `${h.given ? 'Given' : 'Withdrawn'} ${at(h.at)} (${h.source})`).join('; ') || '–',
          ])}
        />
      </Section>
      <Section id="shares-made" title="Shares made" count={doc.sharesMade.length}>
        <Rows
          head={['Barcode', 'Shared with', 'Shared', 'Stopped']}
          rows={doc.sharesMade.map((s) => [s.barcode, person(s.sharedWith), at(s.createdAt), at(s.stoppedAt)])}
        />
      </Section>
      <Section id="shares-received" title="Shares received" count={doc.sharesReceived.length}>
        <Rows
          head={['Barcode', 'As', 'Shared', 'Stopped']}
          rows={doc.sharesReceived.map((s) => [s.barcode, person(s.person), at(s.createdAt), at(s.stoppedAt)])}
        />
      </Section>
      <Section id="photos" title="Photos" count={doc.photos.length}>
        <Rows
          head={['Barcode', 'Photo', 'Uploaded']}
          rows={doc.photos.map((p) => [
            p.barcode,
            <img key="photo" src={`data:image/png;base64,${p.png}`} alt={`Photo of ticket ${p.barcode}`} width={64} />,
            at(p.uploadedAt),
          ])}
        />
      </Section>
      <Section id="pass-locks" title="Season pass locks" count={doc.passLocks.length}>
        <Rows
          head={['Barcode', 'Why', 'Since', '']}
          rows={doc.passLocks.map((l) => [
            l.barcode,
            LOCK_REASONS[l.reason],
            at(l.lockedAt),
            canLift ? <LiftLock key="lift" barcode={l.barcode} /> : 'Ask a member who may lift locks',
          ])}
        />
      </Section>
      <Section id="wristbands" title="Wristbands" count={doc.wristbands.length}>
        <Rows
          head={['Wristband', 'Barcode', 'Activated', 'Deactivated']}
          rows={doc.wristbands.map((w) => [w.wristbandBarcode, w.barcode, at(w.activatedAt), at(w.deactivatedAt)])}
        />
      </Section>
      <Section id="loyalty" title="Loyalty accounts" count={doc.loyalty.length}>
        <Rows
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
      </Section>
      <Section id="hotel" title="Hotel reservations" count={doc.hotelReservations.length}>
        <Rows
          head={['Reservation', 'Guest', 'Arrival', 'Departure']}
          rows={doc.hotelReservations.map((r) => [r.reservationNumber, person({ ...r, phone: null }), r.arrival, r.departure])}
        />
      </Section>
      <Section id="mails" title="Mails" count={doc.mails.length}>
        <Rows head={['To', 'Subject', 'Written', 'Sent']} rows={doc.mails.map((m) => [m.to, m.subject, at(m.createdAt), at(m.sentAt)])} />
      </Section>
      <Section id="wallet" title="Wallet passes" count={doc.wallet.length}>
        <Rows
          head={['Pass', 'Barcode', 'Apple devices', 'First added', 'Google Wallet']}
          rows={doc.wallet.map((w) => [w.pass, w.barcode ?? '–', w.appleDevices, at(w.firstAddedAt), w.googleState ?? '–'])}
        />
      </Section>
    </section>
  );
}

export function PrivacyPage({ user }: { user: StaffUser }) {
  const handleError = useStaffErrorHandler();
  const [kind, setKind] = useState<Kind>('email');
  const [value, setValue] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [scope, setScope] = useState<Scope>('orderId');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<PrivacyErasure | null>(null);
  const find = useMutation({
    mutationFn: async (body: object) => (await staffRequest(PRIVACY.export.api, { method: 'POST', body, schema: privacyExport })).data,
    onError: (e) => setError(handleError(e) ?? undefined),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = kind === 'name' ? { firstName, lastName, [scope]: value } : { [kind]: value };
    const parsed = privacyQuery.safeParse(body);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    setErased(null);
    find.mutate(body);
  };
  const canErase = hasPermission(user, PRIVACY.erase);

  return (
    <section aria-labelledby="privacy-heading" className="staff-privacy">
      <h2 id="privacy-heading" className="h4 mb-3">
        Privacy
      </h2>
      <Form noValidate onSubmit={submit} className="staff-privacy__form mb-4" aria-labelledby="privacy-find-heading">
        <h3 id="privacy-find-heading" className="h5">
          Find a person&apos;s data
        </h3>
        <Form.Group controlId="privacy-kind" className="mb-3">
          <Form.Label>Find by</Form.Label>
          <Form.Select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              setError(undefined);
            }}
          >
            {(Object.keys(KINDS) as Kind[]).map((k) => (
              <option key={k} value={k}>
                {KINDS[k].label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {kind === 'name' ? (
          <>
            <p className="small text-body-secondary">
              A ticket holder known by name only (no email or phone): their name and one of the following.
            </p>
            <TextField
              id="privacy-first-name"
              label="First Name"
              autoComplete="off"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
            />
            <TextField
              id="privacy-last-name"
              label="Last Name"
              autoComplete="off"
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
            />
            <Form.Group controlId="privacy-scope" className="mb-3">
              <Form.Label>With</Form.Label>
              <Form.Select
                value={scope}
                onChange={(e) => {
                  setScope(e.target.value as Scope);
                  setValue('');
                  setError(undefined);
                }}
              >
                {(Object.keys(SCOPES) as Scope[]).map((s) => (
                  <option key={s} value={s}>
                    {SCOPES[s].label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </>
        ) : null}
        <TextField
          id="privacy-value"
          label={kind === 'name' ? SCOPES[scope].label : KINDS[kind].label}
          hint={kind === 'name' ? SCOPES[scope].hint : KINDS[kind].hint}
          type={kind === 'name' ? SCOPES[scope].input : KINDS[kind].input}
          autoComplete="off"
          value={value}
          error={error}
          onChange={(e) => setValue(e.target.value)}
        />
        <BusyButton type="submit" busy={find.isPending} busyLabel="Finding...">
          Find
        </BusyButton>
      </Form>
      <div aria-live="polite">
        {erased ? <Erased result={erased} /> : null}
        {find.data && !find.isPending && !erased ? (
          <PersonalData
            doc={find.data}
            onErase={canErase ? () => setConfirming(true) : undefined}
            canLift={hasPermission(user, PRIVACY.liftPassLock)}
          />
        ) : null}
      </div>
      {confirming && find.data ? (
        <EraseDialog
          doc={find.data}
          onClose={() => setConfirming(false)}
          onErased={(result) => {
            setConfirming(false);
            setErased(result);
          }}
        />
      ) : null}
    </section>
  );
}

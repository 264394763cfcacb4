// The loaded loyalty account: its email, Remove Account, the season pass, Change User, the
// Tickets, Food & Beverage and Hotel Reservations forms that add purchases on the member's
// behalf (admin mode), the orders with Remove Order; and the points balance with the ledger and
// its reasons, a points adjustment with a required reason, the member's phone and zip, and the
// pass link mail.
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { CheckCandidate } from '@boardwalk/contract/loyalty';
import { isSeasonPassId, staffLoyaltyMessages as texts, type StaffLoyaltyOrder } from '@boardwalk/contract/staff-loyalty';
import { LOYALTY } from '@boardwalk/contract/staff-resources';
import { failedWith } from '../../lib/api-client.ts';
import { formatDateTime, formatPhone } from '../../lib/format.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useToast } from '../admin/toasts.tsx';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';
import { loyaltyApi, staffClaim, type StaffClaimKind } from './loyalty-api.ts';
import { useLoyaltyFailure } from './loyalty-errors.ts';

// The same camera scanner as the guest claim forms, fetched when the overlay opens.
const BarcodeScanner = lazy(() => import('../../guest/loyalty/barcode-scanner.tsx').then((m) => ({ default: m.BarcodeScanner })));

/** Order dates as M/D/YY. */
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'numeric', day: 'numeric', year: '2-digit' });
const TYPE_LABELS: Record<StaffLoyaltyOrder['type'], string> = { ticket: 'Ticket', 'food-and-beverage': 'Food & Beverage', hotel: 'Hotel' };

interface AccountProps {
  user: StaffUser;
  userID: string;
  email: string;
  onChangeUser: () => void;
}

const keys = (userID: string) => ({
  all: [STAFF_QUERY_KEY, 'loyalty', userID],
  account: [STAFF_QUERY_KEY, 'loyalty', userID, 'account'],
  orders: [STAFF_QUERY_KEY, 'loyalty', userID, 'orders'],
  seasonPass: [STAFF_QUERY_KEY, 'loyalty', userID, 'season-pass'],
});

/** Toasts a failed query once per failure. */
function useToastOnError(error: unknown, text: string) {
  const fail = useLoyaltyFailure();
  useEffect(() => {
    if (error) fail(error, text);
  }, [error, fail, text]);
}

export function LoyaltyAccount({ user, userID, email, onChangeUser }: AccountProps) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const queryClient = useQueryClient();
  const k = keys(userID);
  const account = useQuery({ queryKey: k.account, queryFn: () => loyaltyApi.account(userID), retry: false });
  useToastOnError(account.error, texts.unableToSubmit);
  const reload = () => queryClient.invalidateQueries({ queryKey: k.all });
  const [confirmRemove, setConfirmRemove] = useState(false);
  const removeAccount = useMutation({
    mutationFn: () => loyaltyApi.removeAccount(userID),
    onSuccess: () => {
      toast(texts.accountRemoved(email), 'success');
      queryClient.removeQueries({ queryKey: k.all });
      onChangeUser();
    },
    onError: (error) => {
      setConfirmRemove(false);
      fail(error, texts.unableToRemove);
    },
  });
  const passLink = useMutation({
    mutationFn: () => loyaltyApi.passLink(userID),
    onSuccess: ({ sentTo }) => toast(`Pass link sent to ${sentTo}.`, 'success'),
    onError: (error) => fail(error, texts.unableToSubmit),
  });
  const a = account.data;

  return (
    <div className="staff-loyalty__account">
      <div className="staff-loyalty__panel staff-loyalty__summary">
        <div className="staff-loyalty__who">
          <h3 className="h5 mb-1 text-break" data-testid="loyalty-email">
            {email}
          </h3>
          {a ? (
            <p className="mb-0 text-body-secondary">
              {a.firstName} {a.lastName} · Member {a.memberNumber}
            </p>
          ) : null}
        </div>
        <div className="actions">
          <Button variant="outline-secondary" onClick={onChangeUser}>
            Change User
          </Button>
          <BusyButton variant="outline-primary" busy={passLink.isPending} busyLabel="Sending..." onClick={() => passLink.mutate()}>
            Email Pass Link
          </BusyButton>
          {hasPermission(user, LOYALTY.removeAccount) ? (
            <Button variant="outline-danger" onClick={() => setConfirmRemove(true)}>
              Remove Account
            </Button>
          ) : null}
        </div>
      </div>

      <div className="staff-loyalty__grid">
        <SeasonPass userID={userID} />
        {a ? <Contact userID={userID} phone={a.phone} zip={a.zip} onSaved={reload} /> : null}
      </div>

      <h3 className="h5 mt-4">Add purchases</h3>
      <div className="staff-loyalty__grid staff-loyalty__grid--three">
        <ClaimForm kind="tickets" userID={userID} email={email} onAdded={reload} />
        <ClaimForm kind="purchase" userID={userID} email={email} onAdded={reload} />
        <ClaimForm kind="hotels" userID={userID} email={email} onAdded={reload} />
      </div>

      <Orders user={user} userID={userID} email={email} onRemoved={reload} />
      <Points userID={userID} account={a} onAdjusted={reload} />

      {confirmRemove ? (
        <Confirm
          title="Remove Account"
          busy={removeAccount.isPending}
          confirmLabel="Remove Account"
          onConfirm={() => removeAccount.mutate()}
          onCancel={() => setConfirmRemove(false)}
        >
          This will remove the account <strong className="text-break">{email}</strong> and all associated loyalty orders. Are you sure you
          wish to proceed?
        </Confirm>
      ) : null}
    </div>
  );
}

function Confirm({
  title,
  children,
  busy,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: React.ReactNode;
  busy: boolean;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show onHide={() => !busy && onCancel()} aria-labelledby="loyalty-confirm-title" className="staff-modal">
      <Modal.Header>
        <Modal.Title id="loyalty-confirm-title" as="h2" className="h5">
          {title}
        </Modal.Title>
        <button type="button" className="btn-close" aria-label="Close" onClick={onCancel} disabled={busy} />
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{children}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <BusyButton variant="danger" busy={busy} busyLabel="Removing..." onClick={onConfirm}>
          {confirmLabel}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}

/** The season pass: one saved locks the field and shows Remove; otherwise Add (18 characters starting with 24). 404 means none. */
function SeasonPass({ userID }: { userID: string }) {
  const k = keys(userID);
  const queryClient = useQueryClient();
  const fail = useLoyaltyFailure();
  const pass = useQuery({
    queryKey: k.seasonPass,
    queryFn: async () => {
      try {
        return await loyaltyApi.seasonPass(userID);
      } catch (error) {
        if (failedWith(error, 'NOT_FOUND')) return null;
        throw error;
      }
    },
    retry: false,
  });
  useToastOnError(pass.error, texts.unableToGetSeasonPass);
  const [value, setValue] = useState('');
  const reload = () => queryClient.invalidateQueries({ queryKey: k.seasonPass });
  const add = useMutation({
    mutationFn: () => loyaltyApi.addSeasonPass(userID, value.trim()),
    onSuccess: async () => {
      setValue('');
      await reload();
    },
    onError: (error) => fail(error, texts.unableToAddSeasonPass),
  });
  const remove = useMutation({
    mutationFn: () => loyaltyApi.removeSeasonPass(userID),
    onSuccess: reload,
    onError: (error) => fail(error, texts.unableToRemoveSeasonPass),
  });
  const current = pass.data;
  return (
    <Form
      noValidate
      className="staff-loyalty__panel"
      aria-labelledby="loyalty-season-pass-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!current && isSeasonPassId(value.trim())) add.mutate();
      }}
    >
      <h3 id="loyalty-season-pass-heading" className="h6">
        Season Pass
      </h3>
      <TextField
        id="loyalty-season-pass"
        label="Season Pass ID"
        hint={current ? undefined : '18 characters, starting with 24'}
        autoComplete="off"
        className="staff-loyalty__mono mb-3"
        value={current ?? value}
        readOnly={Boolean(current)}
        disabled={pass.isPending}
        onChange={(e) => setValue(e.target.value)}
      />
      {current ? (
        <BusyButton variant="outline-danger" busy={remove.isPending} busyLabel="Removing..." onClick={() => remove.mutate()}>
          Remove Season Pass
        </BusyButton>
      ) : (
        <BusyButton type="submit" disabled={pass.isPending || !isSeasonPassId(value.trim())} busy={add.isPending} busyLabel="Adding...">
          Add Season Pass
        </BusyButton>
      )}
    </Form>
  );
}

/** Staff fill in the phone and zip the lookup shows (nothing else knows them). */
function Contact({ userID, phone, zip, onSaved }: { userID: string; phone: string | null; zip: string | null; onSaved: () => void }) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const [phoneValue, setPhone] = useState(phone ? formatPhone(phone) : '');
  const [zipValue, setZip] = useState(zip ?? '');
  const save = useMutation({
    mutationFn: () => loyaltyApi.contact(userID, phoneValue.trim(), zipValue.trim()),
    onSuccess: () => {
      toast('Contact details saved.', 'success');
      onSaved();
    },
    onError: (error) => fail(error, texts.unableToSubmit),
  });
  return (
    <Form
      noValidate
      className="staff-loyalty__panel"
      aria-labelledby="loyalty-contact-heading"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <h3 id="loyalty-contact-heading" className="h6">
        Contact
      </h3>
      <div className="staff-loyalty__pair">
        <TextField
          id="loyalty-phone"
          label="Phone"
          type="tel"
          autoComplete="off"
          value={phoneValue}
          onChange={(e) => setPhone(e.target.value)}
        />
        <TextField id="loyalty-zip" label="Zip" autoComplete="off" value={zipValue} onChange={(e) => setZip(e.target.value)} />
      </div>
      <BusyButton type="submit" variant="outline-primary" busy={save.isPending} busyLabel="Saving...">
        Save Contact
      </BusyButton>
    </Form>
  );
}

const CLAIMS: Record<StaffClaimKind, { title: string; label: string; field: string; scan?: string }> = {
  tickets: { title: 'Tickets', label: 'Order ID or Invoice Number', field: 'orderId' },
  purchase: { title: 'Food & Beverage', label: 'Check Number', field: 'checkNumber', scan: 'Scan your check number' },
  hotels: { title: 'Hotel Reservations', label: 'Reservation Number', field: 'reservationNumber' },
};

/** One add form: a 400 shows the server's text in red; other failures the support text. */
function ClaimForm({ kind, userID, email, onAdded }: { kind: StaffClaimKind; userID: string; email: string; onAdded: () => void }) {
  const { title, label, field, scan } = CLAIMS[kind];
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [candidates, setCandidates] = useState<CheckCandidate[] | null>(null);
  const [scanning, setScanning] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const claim = useMutation({
    mutationFn: (checkID?: string) => staffClaim(kind, { [field]: value.trim(), email, userID, ...(checkID && { checkID }) }),
    onSuccess: (answer) => {
      if (Array.isArray(answer)) return setCandidates(answer);
      setCandidates(null);
      setValue('');
      toast(`${title}: added, +${answer.pointsEarned.toLocaleString('en-US')} points.`, 'success');
      onAdded();
    },
    onError: (error) => {
      if (failedWith(error, 'UNAUTHORIZED', 'FORBIDDEN')) return void handleError(error);
      setMessage(failedWith(error, 'VALIDATION_FAILED') && error.body?.message ? error.body.message : texts.claimFailed(supportEmail));
    },
  });
  const id = `loyalty-claim-${kind}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setCandidates(null);
    if (value.trim()) claim.mutate(undefined);
  };
  return (
    <Form noValidate onSubmit={submit} className="staff-loyalty__panel" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`} className="h6">
        {title}
      </h4>
      <div role="alert" aria-atomic="true">
        {message ? <p className="text-danger fw-semibold mb-2">{message}</p> : null}
      </div>
      <TextField
        ref={fieldRef}
        id={id}
        label={label}
        autoComplete="off"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setCandidates(null);
        }}
      />
      <div className="actions">
        {scan ? (
          <Button variant="outline-secondary" onClick={() => setScanning(true)}>
            Scan Barcode
          </Button>
        ) : null}
        <BusyButton type="submit" disabled={!value.trim()} busy={claim.isPending} busyLabel="Adding...">
          Add
        </BusyButton>
      </div>
      {candidates ? (
        <div className="mt-3">
          <p className="mb-2">Several checks have this number:</p>
          <ScrollRegion label="Checks with this number">
            <Table size="sm" className="align-middle mb-0">
              <thead>
                <tr>
                  <th scope="col">Order Date</th>
                  <th scope="col">Terminal</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {candidates.map((c) => (
                  <tr key={c.checkID}>
                    <td>{formatDateTime(c.ORDER_DATE)}</td>
                    <td>{c.TERMINAL_ID}</td>
                    <td>
                      <Button
                        size="sm"
                        variant="outline-primary"
                        disabled={claim.isPending || c.IN_LOYALTY_ORDERS}
                        onClick={() => claim.mutate(c.checkID)}
                      >
                        {c.IN_LOYALTY_ORDERS ? 'Added' : 'Add'}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ScrollRegion>
        </div>
      ) : null}
      {scan && scanning ? (
        <Suspense fallback={null}>
          <BarcodeScanner
            title={scan}
            onClose={() => setScanning(false)}
            onCode={(code) => {
              setScanning(false);
              setValue(code);
              fieldRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </Form>
  );
}

function Orders({ user, userID, email, onRemoved }: { user: StaffUser; userID: string; email: string; onRemoved: () => void }) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const orders = useQuery({ queryKey: keys(userID).orders, queryFn: () => loyaltyApi.orders(email), retry: false });
  useToastOnError(orders.error, texts.unableToLoadOrders);
  const [confirming, setConfirming] = useState<StaffLoyaltyOrder | null>(null);
  const remove = useMutation({
    mutationFn: (o: StaffLoyaltyOrder) => loyaltyApi.removeOrder(userID, o.id, o.barcode),
    onSuccess: () => {
      setConfirming(null);
      toast(texts.orderRemoved, 'success');
      onRemoved();
    },
    onError: (error) => {
      setConfirming(null);
      fail(error, texts.unableToRemove);
    },
  });
  const canRemove = hasPermission(user, LOYALTY.removeOrder);
  const rows = orders.data;
  return (
    <section className="mt-4" aria-labelledby="loyalty-orders-heading">
      <h3 id="loyalty-orders-heading" className="h5">
        Orders
      </h3>
      {orders.isPending ? (
        <p role="status">Loading Orders...</p>
      ) : !rows || rows.length === 0 ? (
        <p>No Orders</p>
      ) : (
        <ScrollRegion label="Loyalty orders">
          <Table size="sm" className="align-middle mb-0 staff-loyalty__orders">
            <thead>
              <tr>
                <th scope="col">Order ID / Check #</th>
                <th scope="col">Barcode / Check ID</th>
                <th scope="col">Product</th>
                <th scope="col">Order Date</th>
                <th scope="col">Type</th>
                {canRemove ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={`${o.type}:${o.barcode}`}>
                  <td className="text-nowrap">{o.id}</td>
                  <td className="staff-loyalty__mono text-nowrap">{o.barcode}</td>
                  <td>{o.product}</td>
                  <td>{shortDate.format(new Date(o.timestamp))}</td>
                  <td className="text-nowrap">{TYPE_LABELS[o.type]}</td>
                  {canRemove ? (
                    <td>
                      <Button size="sm" variant="outline-danger" className="text-nowrap" onClick={() => setConfirming(o)}>
                        Remove Order
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollRegion>
      )}
      {confirming ? (
        <Confirm
          title="Remove Order"
          busy={remove.isPending}
          confirmLabel="Remove Order"
          onConfirm={() => remove.mutate(confirming)}
          onCancel={() => setConfirming(null)}
        >
          {texts.removeOrderConfirm}
        </Confirm>
      ) : null}
    </section>
  );
}

/** A wide table scrolls sideways on a phone: the region takes keyboard focus so it can be scrolled without a pointer. */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={`table-responsive staff-loyalty__scroll ${className ?? ''}`} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

const CAUSED_BY = { guest: 'Guest', system: 'System', staff: 'Staff' } as const;

/** The balance is the sum of the ledger, shown with each entry's reason; Loyalty Manage may adjust. */
function Points({
  userID,
  account,
  onAdjusted,
}: {
  userID: string;
  account: Awaited<ReturnType<typeof loyaltyApi.account>> | undefined;
  onAdjusted: () => void;
}) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const [points, setPoints] = useState('');
  const [reason, setReason] = useState('');
  const amount = Number(points);
  const validAmount = /^-?\d+$/.test(points.trim()) && amount !== 0;
  const adjust = useMutation({
    mutationFn: () => loyaltyApi.adjust(userID, amount, reason.trim()),
    onSuccess: ({ balance }) => {
      setPoints('');
      setReason('');
      toast(`Points adjusted. The balance is now ${balance.toLocaleString('en-US')}.`, 'success');
      onAdjusted();
    },
    onError: (error) => fail(error, texts.unableToSubmit),
  });
  return (
    <section className="mt-4" aria-labelledby="loyalty-points-heading">
      <h3 id="loyalty-points-heading" className="h5">
        Points{' '}
        {account ? (
          <span
            className={account.balance < 0 ? 'staff-loyalty__balance text-danger' : 'staff-loyalty__balance'}
            data-testid="loyalty-balance"
          >
            {account.balance.toLocaleString('en-US')}
            {/* A reversal may leave the balance below zero: said in words, not by colour alone. */}
            {account.balance < 0 ? ' (below zero)' : null}
          </span>
        ) : null}
      </h3>
      <Form
        noValidate
        className="staff-loyalty__panel staff-loyalty__adjust"
        aria-label="Adjust points"
        onSubmit={(event) => {
          event.preventDefault();
          if (validAmount && reason.trim()) adjust.mutate();
        }}
      >
        <TextField
          id="loyalty-adjust-points"
          label="Points"
          hint="e.g. 50 or -20"
          inputMode="numeric"
          autoComplete="off"
          value={points}
          onChange={(e) => setPoints(e.target.value)}
        />
        <TextField
          id="loyalty-adjust-reason"
          label="Reason"
          hint="Shown in the ledger"
          autoComplete="off"
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <BusyButton
          type="submit"
          variant="outline-primary"
          disabled={!validAmount || !reason.trim()}
          busy={adjust.isPending}
          busyLabel="Adjusting..."
        >
          Adjust Points
        </BusyButton>
      </Form>
      {account && account.ledger.length > 0 ? (
        <ScrollRegion label="Points ledger" className="mt-3">
          <Table size="sm" className="align-middle mb-0 staff-loyalty__ledger">
            <caption className="visually-hidden">Points ledger, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col" className="text-end">
                  Points
                </th>
                <th scope="col">Reason</th>
                <th scope="col">Order</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {account.ledger.map((e) => (
                <tr key={e.id}>
                  <td className="text-nowrap">{formatDateTime(e.createdAt)}</td>
                  <td className="text-end text-nowrap">
                    {e.points > 0 ? `+${e.points.toLocaleString('en-US')}` : e.points.toLocaleString('en-US')}
                  </td>
                  <td>{e.reason}</td>
                  <td className="text-nowrap">{e.reference ?? ''}</td>
                  <td className="text-nowrap">{e.staffMember ?? CAUSED_BY[e.causedBy]}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollRegion>
      ) : account ? (
        <p className="mt-3">No points yet.</p>
      ) : null}
    </section>
  );
}

import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ALLOWED_CHANGES, type CheckCandidate, type ClaimResult } from '@boardwalk/contract/loyalty';
import { formatDateTime } from '../../lib/format.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { LoyaltyWalletActions } from '../wallet/loyalty-wallet-actions.tsx';
import { useClaim, type ClaimKind, type ClaimRequest } from './loyalty-api.ts';
import { useLoyaltyMember, type LoyaltyMember } from './loyalty-member.ts';
import { CLAIMS, claimErrorMessage, loyaltyTexts } from './loyalty-texts.ts';
import { MemberSignIn } from './member-sign-in.tsx';
import './loyalty.css';

// The scanner and its decoder are fetched when the guest opens the camera.
const BarcodeScanner = lazy(() => import('./barcode-scanner.tsx').then((m) => ({ default: m.BarcodeScanner })));

/**
 * /loyalty/tickets, /loyalty/purchase, /loyalty/hotels: a first path segment (order id, check
 * number or reservation number) is kept and the URL becomes the bare route. The form shows
 * once a member is signed in and may claim (allowedChanges at least 1).
 */
export function ClaimPage({ kind }: { kind: ClaimKind }) {
  const { code } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { member } = useLoyaltyMember();
  useEffect(() => {
    if (code !== undefined) navigate(`/loyalty/${kind}`, { replace: true, state: { code } });
  }, [code, kind, navigate]);
  if (code !== undefined) return null;
  if (!member) return <MemberSignIn />;
  const stored = (location.state as { code?: unknown } | null)?.code;
  return <ClaimForm kind={kind} member={member} initial={typeof stored === 'string' ? stored : ''} />;
}

function ClaimForm({ kind, member, initial }: { kind: ClaimKind; member: LoyaltyMember; initial: string }) {
  const { claimed } = useLoyaltyMember();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const claim = useClaim(kind);
  const [value, setValue] = useState(initial);
  const [result, setResult] = useState<ClaimResult | null>(null);
  const [candidates, setCandidates] = useState<CheckCandidate[] | null>(null);
  const [scanning, setScanning] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const { title, label, hint, field, scan } = CLAIMS[kind];

  if (result) return <ClaimSuccess result={result} email={member.email} />;
  if (member.allowedChanges < 1) {
    return (
      <section className="panel panel--narrow" aria-labelledby="claim-heading">
        <PageHeading id="claim-heading">{title}</PageHeading>
        <p className="loyalty-note">
          {member.allowedChanges === ALLOWED_CHANGES.existingAccount
            ? loyaltyTexts.existingAccount(supportEmail)
            : loyaltyTexts.alreadyClaimed(supportEmail)}
        </p>
        <p>
          Membership ID: <strong>{member.userID}</strong>
        </p>
        <Link to="/loyalty/" className="btn btn-outline-secondary">
          Back
        </Link>
      </section>
    );
  }

  const send = (extra: { checkID?: string } = {}) => {
    const body = { [field]: value.trim(), email: member.email, userID: member.userID, ...extra } as ClaimRequest;
    claim.mutate(body, {
      onSuccess: (answer) => {
        if (Array.isArray(answer)) return setCandidates(answer);
        claimed(member);
        setResult(answer);
      },
    });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCandidates(null);
    if (value.trim()) send();
  };

  return (
    <section className="panel panel--narrow" aria-labelledby="claim-heading">
      <PageHeading id="claim-heading">{title}</PageHeading>
      <p className="panel__intro">Add a purchase to earn Brownie points. Each purchase can be added once.</p>
      <LiveAlert message={claim.isError ? claimErrorMessage(claim.error, supportEmail) : null} />
      <Form noValidate onSubmit={submit}>
        <TextField
          ref={fieldRef}
          id={field}
          label={label}
          hint={hint}
          autoComplete="off"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setCandidates(null);
          }}
        />
        {scan ? (
          <Button variant="outline-primary" className="mb-3" onClick={() => setScanning(true)}>
            Scan Barcode
          </Button>
        ) : null}
        <div className="actions">
          <Link to="/loyalty/" className="btn btn-outline-secondary">
            Back
          </Link>
          <BusyButton type="submit" variant="primary" disabled={!value.trim()} busy={claim.isPending} busyLabel={loyaltyTexts.submitting}>
            Submit
          </BusyButton>
        </div>
      </Form>
      {scan && scanning ? (
        <Suspense fallback={null}>
          <BarcodeScanner
            title={scan}
            onClose={() => setScanning(false)}
            onCode={(code) => {
              setScanning(false);
              setCandidates(null);
              setValue(code);
              fieldRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
      {candidates ? <Candidates candidates={candidates} busy={claim.isPending} onAdd={(checkID) => send({ checkID })} /> : null}
    </section>
  );
}

/** Several checks share the number: the guest picks theirs by date and terminal. */
function Candidates({ candidates, busy, onAdd }: { candidates: CheckCandidate[]; busy: boolean; onAdd: (checkID: string) => void }) {
  return (
    <div className="loyalty-candidates">
      <h2 className="h6 mt-4">Several checks have this number. Which one is yours?</h2>
      <ul className="list-unstyled">
        {candidates.map((c) => (
          <li key={c.checkID} className="loyalty-candidates__row">
            <span>
              {formatDateTime(c.ORDER_DATE)} <span className="text-body-secondary">· Terminal {c.TERMINAL_ID}</span>
            </span>
            <Button size="sm" variant="outline-primary" disabled={busy || c.IN_LOYALTY_ORDERS} onClick={() => onAdd(c.checkID)}>
              {c.IN_LOYALTY_ORDERS ? 'Added' : 'Add'}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ClaimSuccess({ result, email }: { result: ClaimResult; email: string }) {
  return (
    <section className="panel panel--narrow" aria-labelledby="claim-success-heading">
      <PageHeading id="claim-success-heading">{loyaltyTexts.earned}</PageHeading>
      <p className="loyalty-points" data-testid="points-earned">
        +{result.pointsEarned.toLocaleString('en-US')} Brownie points
      </p>
      <p>
        Your points were applied to your account. Your balance is now <strong>{result.balance.toLocaleString('en-US')}</strong> Brownie
        points.
      </p>
      <p>{loyaltyTexts.downloadApp}</p>
      <LoyaltyWalletActions request={{ email, walletToken: result.walletToken }} />
      <Link to="/loyalty/" className="btn btn-outline-secondary mt-3">
        Back to Brownie Points
      </Link>
    </section>
  );
}

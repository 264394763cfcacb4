import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslations } from 'use-intl';
import { ALLOWED_CHANGES, type ClaimResult } from '@boardwalk/contract/loyalty';
import { useFormats } from '../../lib/format.ts';
import { ClaimForm, type CandidatesProps } from '../../loyalty/claim-form.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { LoyaltyWalletActions } from '../wallet/loyalty-wallet-actions.tsx';
import { useClaim, type ClaimKind, type ClaimRequest } from './loyalty-api.ts';
import { useLoyaltyMember, type LoyaltyMember } from './loyalty-member.ts';
import { CLAIM_FIELDS, useClaimTexts, useLoyaltyErrors } from './loyalty-texts.ts';
import { MemberSignIn } from './member-sign-in.tsx';
import './loyalty.css';

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
  return <MemberClaim kind={kind} member={member} initial={typeof stored === 'string' ? stored : ''} />;
}

function MemberClaim({ kind, member, initial }: { kind: ClaimKind; member: LoyaltyMember; initial: string }) {
  const { claimed } = useLoyaltyMember();
  const t = useTranslations('loyalty');
  const errors = useLoyaltyErrors();
  const { supportEmail } = errors;
  const claim = useClaim(kind);
  const [result, setResult] = useState<ClaimResult | null>(null);
  // The kind's label, hint and scanner's words are the form's.
  const { title, ...texts } = useClaimTexts(kind);
  const field = CLAIM_FIELDS[kind];
  const back = (
    <Link to="/loyalty/" className="btn btn-outline-secondary">
      {t('back')}
    </Link>
  );

  if (result) return <ClaimSuccess result={result} email={member.email} />;
  if (member.allowedChanges < 1) {
    return (
      <section className="panel panel--narrow" aria-labelledby="claim-heading">
        <PageHeading id="claim-heading">{title}</PageHeading>
        <p className="loyalty-note">
          {t(member.allowedChanges === ALLOWED_CHANGES.existingAccount ? 'claim.existingAccount' : 'claim.alreadyClaimed', {
            supportEmail,
          })}
        </p>
        <p>{t.rich('claim.membershipId', { userID: member.userID, strong: (text) => <strong>{text}</strong> })}</p>
        {back}
      </section>
    );
  }

  const send = async (value: string, checkID?: string) => {
    const body = { [field]: value, email: member.email, userID: member.userID, ...(checkID && { checkID }) } as ClaimRequest;
    const answer = await claim.mutateAsync(body);
    if (Array.isArray(answer)) return answer;
    claimed(member);
    setResult(answer);
    return null;
  };

  return (
    <section className="panel panel--narrow" aria-labelledby="claim-heading">
      <PageHeading id="claim-heading">{title}</PageHeading>
      <p className="panel__intro">{t('claim.intro')}</p>
      <LiveAlert message={claim.isError ? errors.claim(claim.error) : null} />
      <ClaimForm
        id={field}
        {...texts}
        initial={initial}
        claim={send}
        busy={claim.isPending}
        submit={{ label: t('submit'), busyLabel: t('submitting'), variant: 'primary' }}
        scanPlacement="row"
        back={back}
        Candidates={Candidates}
      />
    </section>
  );
}

/** Several checks share the number: the guest picks theirs by date and terminal. */
function Candidates({ candidates, busy, onAdd }: CandidatesProps) {
  const formats = useFormats();
  const t = useTranslations('loyalty.claim');
  return (
    <div className="loyalty-candidates">
      <h2 className="h6 mt-4">{t('candidates')}</h2>
      <ul className="list-unstyled">
        {candidates.map((c) => (
          <li key={c.checkID} className="loyalty-candidates__row">
            <span>
              {formats.dateTime(c.ORDER_DATE)} <span className="text-body-secondary">· {t('terminal', { terminal: c.TERMINAL_ID })}</span>
            </span>
            <Button size="sm" variant="outline-primary" disabled={busy || c.IN_LOYALTY_ORDERS} onClick={() => onAdd(c.checkID)}>
              {t(c.IN_LOYALTY_ORDERS ? 'added' : 'add')}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ClaimSuccess({ result, email }: { result: ClaimResult; email: string }) {
  const t = useTranslations('loyalty');
  return (
    <section className="panel panel--narrow" aria-labelledby="claim-success-heading">
      <PageHeading id="claim-success-heading">{t('earned.heading')}</PageHeading>
      <p className="loyalty-points" data-testid="points-earned">
        {t('earned.points', { points: result.pointsEarned })}
      </p>
      <p>{t.rich('earned.balance', { balance: result.balance, strong: (text) => <strong>{text}</strong> })}</p>
      <p>{t('downloadApp')}</p>
      <LoyaltyWalletActions request={{ email, walletToken: result.walletToken }} />
      <Link to="/loyalty/" className="btn btn-outline-secondary mt-3">
        {t('backHome')}
      </Link>
    </section>
  );
}

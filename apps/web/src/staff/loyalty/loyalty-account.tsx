// The loaded loyalty account: its email, Change User, the pass link mail and Remove Account;
// then one section each (its calls beside it): the season pass, the member's phone and zip, the
// Tickets, Food & Beverage and Hotel Reservations forms that add purchases on the member's
// behalf (admin mode), the orders with Remove Order, the rewards (redeem, the redemptions with
// Reverse), the points with the ledger and an adjustment, and the points by expiry (the lots).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Button from 'react-bootstrap/Button';
import { passLinkResult, staffLoyaltyMessages as texts } from '@boardwalk/contract/staff-loyalty';
import type { MemberCampaign, MemberChallenge } from '@boardwalk/contract/loyalty-integration';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { BusyButton } from '../../ui/busy-button.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ContactForm } from './contact-form.tsx';
import { accountQuery, api, id, loyaltyJson, memberKey } from './loyalty-api.ts';
import { useLoyaltyFailure, useToastOnError } from './loyalty-errors.ts';
import { LoyaltyLots } from './loyalty-lots.tsx';
import { LoyaltyOrders } from './loyalty-orders.tsx';
import { LoyaltyPoints } from './loyalty-points.tsx';
import { LoyaltyRedemptions } from './loyalty-redemptions.tsx';
import { SeasonPass } from './season-pass.tsx';
import { StaffClaimForm } from './staff-claim-form.tsx';
import { WalletPresenceLine } from './wallet-presence.tsx';

interface AccountProps {
  user: StaffUser;
  userID: string;
  email: string;
  onChangeUser: () => void;
}

/** Removes the account and every loyalty order of it; the member's cached queries go with it. */
function useRemoveAccount(userID: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => loyaltyJson(`${api}${id(userID)}`, z.unknown(), 'DELETE'),
    onSuccess: () => queryClient.removeQueries({ queryKey: memberKey(userID) }),
  });
}

/** Mails the member the link to their loyalty pass. */
function useSendPassLink(userID: string) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: () => loyaltyJson(`${api}pass-link/`, passLinkResult, 'POST', { userID }),
    onSuccess: ({ sentTo }) => toast(`Pass link sent to ${sentTo}.`, 'success'),
    onError: (error) => fail(error, texts.unableToSubmit),
  });
}

export function LoyaltyAccount({ user, userID, email, onChangeUser }: AccountProps) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const account = useQuery(accountQuery(userID));
  useToastOnError(account.error, texts.unableToSubmit);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const removeAccount = useRemoveAccount(userID);
  const passLink = useSendPassLink(userID);
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
              {a.firstName} {a.lastName} · Member {a.memberNumber} ·{' '}
              <span data-testid="loyalty-tier">{a.tier ? `${a.tier} tier` : 'No tier yet'}</span>
            </p>
          ) : null}
          {a ? <WalletPresenceLine label="Member card" presence={a.card} /> : null}
          {a && a.campaigns.length > 0 ? <CampaignsLine campaigns={a.campaigns} /> : null}
          {a && a.challenges.length > 0 ? <ChallengesLine challenges={a.challenges} /> : null}
          {a ? (
            <p className="mb-0 mt-1 small text-break" data-testid="loyalty-referral">
              Referral link: {a.referral.link} · {a.referral.referred.length} joined with it (
              {a.referral.referred.filter((r) => r.earned).length} earned the bonus)
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
        {a ? <ContactForm userID={userID} phone={a.phone} zip={a.zip} birthday={a.birthday} /> : null}
      </div>

      <h3 className="h5 mt-4">Add purchases</h3>
      <div className="staff-loyalty__grid staff-loyalty__grid--three">
        <StaffClaimForm kind="tickets" userID={userID} email={email} />
        <StaffClaimForm kind="purchase" userID={userID} email={email} />
        <StaffClaimForm kind="hotels" userID={userID} email={email} />
      </div>

      <LoyaltyOrders user={user} userID={userID} email={email} />
      <LoyaltyRedemptions user={user} userID={userID} />
      <LoyaltyPoints userID={userID} account={a} />
      <LoyaltyLots userID={userID} />

      {confirmRemove ? (
        <ConfirmDialog
          title="Remove Account"
          busy={removeAccount.isPending}
          confirmLabel="Remove Account"
          onConfirm={() =>
            removeAccount.mutate(undefined, {
              onSuccess: () => {
                toast(texts.accountRemoved(email), 'success');
                onChangeUser();
              },
              onError: (error) => {
                setConfirmRemove(false);
                fail(error, texts.unableToRemove);
              },
            })
          }
          onCancel={() => setConfirmRemove(false)}
        >
          This will remove the account <strong className="text-break">{email}</strong> and all associated loyalty orders. Are you sure you
          wish to proceed?
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

const PURCHASE_KINDS: Record<MemberCampaign['appliesTo'][number], string> = {
  ticket: 'tickets',
  'food-and-beverage': 'food and beverage',
  hotel: 'hotel',
};

const GOAL_WORDS: Record<MemberChallenge['goal'], string> = { days: 'days', outlets: 'food outlets', nights: 'hotel nights' };

/** The challenges running for the member: each one's progress, or what completing it gave. */
function ChallengesLine({ challenges }: { challenges: MemberChallenge[] }) {
  return (
    <p className="mb-0 mt-1 small" data-testid="loyalty-challenges">
      Challenges:{' '}
      {challenges
        .map((c) =>
          c.completed
            ? `${c.name} (complete, +${c.bonusPoints} points)`
            : `${c.name} (${c.progress} of ${c.goalCount} ${GOAL_WORDS[c.goal]}, +${c.bonusPoints} points, through ${c.validTo})`,
        )
        .join('; ')}
    </p>
  );
}

/** The campaigns running today that apply to the member: what staff can tell them at the desk. */
function CampaignsLine({ campaigns }: { campaigns: MemberCampaign[] }) {
  return (
    <p className="mb-0 mt-1 small" data-testid="loyalty-campaigns">
      Campaigns today:{' '}
      {campaigns
        .map((c) => {
          const gives = c.kind === 'multiplier' ? `${c.multiplier}× points` : `+${c.bonusPoints} points`;
          return `${c.name} (${gives} on ${c.appliesTo.map((kind) => PURCHASE_KINDS[kind]).join(', ')}, through ${c.validTo})`;
        })
        .join('; ')}
    </p>
  );
}

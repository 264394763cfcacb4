import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { failedWith } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailForm, NamesForm, type MemberNames } from '../../loyalty/member-forms.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { createMember, verifyMember } from './loyalty-api.ts';
import { rememberedEmail, useLoyaltyMember } from './loyalty-member.ts';
import { loyaltyTexts, memberErrorMessage } from './loyalty-texts.ts';

const noChanges = () => () => {};

/**
 * The loyalty email: a known email signs the member in; an unknown one (404) asks for first and
 * last name and creates the account. A remembered email is verified on load.
 */
export function MemberSignIn() {
  const { verified, created } = useLoyaltyMember();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  // The remembered email fills the field until the guest types: read as an external store so
  // the prerendered page (no storage, no email) hydrates as it was rendered, then shows it.
  const remembered = useSyncExternalStore(noChanges, rememberedEmail, () => null);
  const [typedEmail, setEmail] = useState<string | null>(null);
  const email = typedEmail ?? remembered ?? '';
  const [joining, setJoining] = useState(false);
  const verify = useMutation({
    mutationFn: (value: string) => verifyMember(value),
    onSuccess: (userID, value) => verified(value, userID),
    onError: (error) => {
      if (failedWith(error, 'NOT_FOUND')) setJoining(true);
    },
  });
  const create = useMutation({
    mutationFn: (names: MemberNames) => createMember({ email: email.trim(), ...names }),
    onSuccess: (userID) => created(email.trim(), userID),
  });

  // A remembered email is verified once, on load.
  const autoVerified = useRef(false);
  useEffect(() => {
    const stored = rememberedEmail();
    if (stored && !autoVerified.current) {
      autoVerified.current = true;
      verify.mutate(stored);
    }
  }, [verify]);

  const startOver = () => {
    setJoining(false);
    setEmail('');
    verify.reset();
    create.reset();
  };
  const submit = { label: 'Submit', busyLabel: loyaltyTexts.submitting, look: { variant: 'primary' } } as const;

  if (joining) {
    const conflict = failedWith(create.error, 'CONFLICT');
    return (
      <section className="panel panel--narrow" aria-labelledby="loyalty-join-heading">
        <PageHeading id="loyalty-join-heading">Join Brownie Points</PageHeading>
        <p className="panel__intro">
          We could not find an account for <strong className="text-break">{email.trim()}</strong>. Tell us your name to join.
        </p>
        <div role="status">{conflict ? <p className="loyalty-note">{loyaltyTexts.createConflict}</p> : null}</div>
        <LiveAlert message={create.isError && !conflict ? memberErrorMessage(create.error, supportEmail) : null} />
        <NamesForm
          ids={{ firstName: 'loyaltyFirstName', lastName: 'loyaltyLastName' }}
          autoComplete={{ firstName: 'given-name', lastName: 'family-name' }}
          onStartOver={startOver}
          onSubmit={(names) => create.mutate(names)}
          submit={{ ...submit, busy: create.isPending }}
        />
      </section>
    );
  }

  const verifyError = verify.isError && !failedWith(verify.error, 'NOT_FOUND') ? memberErrorMessage(verify.error, supportEmail) : null;
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-email-heading">
      <PageHeading id="loyalty-email-heading">Brownie Points</PageHeading>
      <p className="panel__intro">
        Earn Brownie points for your park tickets, food and drinks, and hotel stays. Enter your email to start.
      </p>
      <LiveAlert message={verifyError} />
      <EmailForm
        id="loyaltyEmail"
        autoComplete="email"
        email={email}
        onEmailChange={setEmail}
        onSubmit={(value) => verify.mutate(value)}
        submit={{
          label: 'Continue',
          busyLabel: loyaltyTexts.submitting,
          busy: verify.isPending,
          look: { variant: 'primary', size: 'lg', className: 'w-100 mt-2' },
        }}
      />
      <p className="mt-4 mb-0">
        Already a member? <Link to="/loyalty/statement">See my points</Link>
      </p>
    </section>
  );
}

import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useMutation } from '@tanstack/react-query';
import { EMAIL_PATTERN } from '@boardwalk/contract/pass';
import { failedWith } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
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
  const [names, setNames] = useState<{ firstName: string; lastName: string } | null>(null);
  const verify = useMutation({
    mutationFn: (value: string) => verifyMember(value),
    onSuccess: (userID, value) => verified(value, userID),
    onError: (error) => {
      if (failedWith(error, 'NOT_FOUND')) setNames({ firstName: '', lastName: '' });
    },
  });
  const create = useMutation({
    mutationFn: () =>
      createMember({ email: email.trim(), firstName: names?.firstName.trim() ?? '', lastName: names?.lastName.trim() ?? '' }),
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

  const validEmail = EMAIL_PATTERN.test(email.trim());
  const startOver = () => {
    setNames(null);
    setEmail('');
    verify.reset();
    create.reset();
  };

  if (names) {
    const conflict = failedWith(create.error, 'CONFLICT');
    const ready = names.firstName.trim() !== '' && names.lastName.trim() !== '' && validEmail;
    const submit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (ready) create.mutate();
    };
    return (
      <section className="panel panel--narrow" aria-labelledby="loyalty-join-heading">
        <PageHeading id="loyalty-join-heading">Join Brownie Points</PageHeading>
        <p className="panel__intro">
          We could not find an account for <strong className="text-break">{email.trim()}</strong>. Tell us your name to join.
        </p>
        <div role="status">{conflict ? <p className="loyalty-note">{loyaltyTexts.createConflict}</p> : null}</div>
        <LiveAlert message={create.isError && !conflict ? memberErrorMessage(create.error, supportEmail) : null} />
        <Form noValidate onSubmit={submit}>
          <TextField
            id="loyaltyFirstName"
            label="First Name"
            autoComplete="given-name"
            value={names.firstName}
            onChange={(e) => setNames({ ...names, firstName: e.target.value })}
          />
          <TextField
            id="loyaltyLastName"
            label="Last Name"
            autoComplete="family-name"
            value={names.lastName}
            onChange={(e) => setNames({ ...names, lastName: e.target.value })}
          />
          <div className="actions">
            <Button variant="outline-secondary" onClick={startOver}>
              Start Over
            </Button>
            <BusyButton type="submit" variant="primary" disabled={!ready} busy={create.isPending} busyLabel={loyaltyTexts.submitting}>
              Submit
            </BusyButton>
          </div>
        </Form>
      </section>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (validEmail) verify.mutate(email.trim());
  };
  const verifyError = verify.isError && !failedWith(verify.error, 'NOT_FOUND') ? memberErrorMessage(verify.error, supportEmail) : null;
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-email-heading">
      <PageHeading id="loyalty-email-heading">Brownie Points</PageHeading>
      <p className="panel__intro">
        Earn Brownie points for your park tickets, food and drinks, and hotel stays. Enter your email to start.
      </p>
      <LiveAlert message={verifyError} />
      <Form noValidate onSubmit={submit}>
        <TextField
          id="loyaltyEmail"
          type="email"
          label="Email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <BusyButton
          type="submit"
          variant="primary"
          size="lg"
          className="w-100 mt-2"
          disabled={!validEmail}
          busy={verify.isPending}
          busyLabel={loyaltyTexts.submitting}
        >
          Continue
        </BusyButton>
      </Form>
    </section>
  );
}

import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import { REFERRAL_PARAMETER } from '@boardwalk/contract/loyalty';
import { useLocale, useTranslations } from 'use-intl';
import { failedWith } from '../../lib/api-client.ts';
import { EmailForm, NamesForm, type MemberNames } from '../../loyalty/member-forms.tsx';
import { BusyButton, MAIN_BUTTON } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { confirmCode, createMember, sendCode } from './loyalty-api.ts';
import { rememberedEmail, useLoyaltyMember } from './loyalty-member.ts';
import { useLoyaltyErrors } from './loyalty-texts.ts';

const noChanges = () => () => {};
/** An email in a sentence (the catalogue's <strong>), broken anywhere on a narrow screen. */
export const emailStrong = (text: ReactNode) => <strong className="text-break">{text}</strong>;
const CODE_PATTERN = /^\d{6}$/;

/** The step the sign-in is at: the email, the code mailed to it, or (no account) the names with the email's proof. */
type Step = { at: 'email' } | { at: 'code'; validMinutes: number } | { at: 'names'; proof: string };

/**
 * The loyalty email, proven by a one-time code: the email first, then the code mailed to it
 * (the same step whether or not the email is a member's), then the account, or for an email
 * with no account the first and last name that create it. A remembered email fills the field.
 */
export function MemberSignIn() {
  const { verified, created } = useLoyaltyMember();
  const t = useTranslations('loyalty');
  const locale = useLocale();
  const errors = useLoyaltyErrors();
  // The remembered email fills the field until the guest types: read as an external store so
  // the prerendered page (no storage, no email) hydrates as it was rendered, then shows it.
  const remembered = useSyncExternalStore(noChanges, rememberedEmail, () => null);
  const [typedEmail, setEmail] = useState<string | null>(null);
  const email = (typedEmail ?? remembered ?? '').trim();
  const [step, setStep] = useState<Step>({ at: 'email' });
  const [resent, setResent] = useState(false);
  // Each code mailed gets an empty field (a new code replaces the one typed before).
  const [codeRound, setCodeRound] = useState(0);
  const send = useMutation({
    mutationFn: (value: string) => sendCode(value),
    onSuccess: (answer) => setStep({ at: 'code', validMinutes: answer.validMinutes }),
  });
  const confirm = useMutation({
    mutationFn: (code: string) => confirmCode({ email, code }),
    // The note about a new code gives way to what this code's answer says.
    onMutate: () => setResent(false),
    onSuccess: (answer) => {
      if (answer.account === 'existing') verified(email, answer.userID);
      else setStep({ at: 'names', proof: answer.proof });
    },
  });
  // A member's referral link (`/loyalty/?ref=CODE`): sent when joining, until the guest joins without it.
  const [searchParams, setSearchParams] = useSearchParams();
  const referralCode = searchParams.get(REFERRAL_PARAMETER)?.trim() || undefined;
  const create = useMutation({
    mutationFn: ({ names, proof, referral }: { names: MemberNames; proof: string; referral: string | undefined }) =>
      createMember({ email, ...names, proof, ...(referral && { referralCode: referral }) }),
    onSuccess: (userID) => created(email, userID),
  });

  const startOver = () => {
    setStep({ at: 'email' });
    setEmail('');
    setResent(false);
    send.reset();
    confirm.reset();
    create.reset();
  };
  const sendAgain = () => {
    confirm.reset();
    setResent(true);
    setCodeRound((round) => round + 1);
    send.mutate(email);
  };
  const submit = { label: t('submit'), busyLabel: t('submitting'), look: { variant: 'primary' } } as const;

  if (step.at === 'names') {
    const conflict = failedWith(create.error, 'CONFLICT');
    const referralRefused = create.isError ? errors.referral(create.error) : null;
    const lastNames = create.variables?.names;
    const withoutReferral = () => {
      setSearchParams((params) => {
        params.delete(REFERRAL_PARAMETER);
        return params;
      });
      if (lastNames) create.mutate({ names: lastNames, proof: step.proof, referral: undefined });
    };
    return (
      <section className="panel panel--narrow" aria-labelledby="loyalty-join-heading">
        <PageHeading id="loyalty-join-heading">{t('join.heading')}</PageHeading>
        <p className="panel__intro">{t.rich('join.intro', { email, strong: emailStrong })}</p>
        {referralCode && !referralRefused ? <p className="loyalty-note">{t('join.referred')}</p> : null}
        <div role="status">{conflict ? <p className="loyalty-note">{t('join.conflict')}</p> : null}</div>
        <LiveAlert message={create.isError && !conflict ? (referralRefused ?? errors.member(create.error)) : null} />
        {referralRefused ? (
          <BusyButton
            className="mb-3"
            variant="outline-primary"
            busy={create.isPending}
            busyLabel={t('submitting')}
            onClick={withoutReferral}
          >
            {t('join.withoutReferral')}
          </BusyButton>
        ) : null}
        <NamesForm
          ids={{ firstName: 'loyaltyFirstName', lastName: 'loyaltyLastName' }}
          labels={{ firstName: t('join.firstName'), lastName: t('join.lastName'), startOver: t('startOver') }}
          autoComplete={{ firstName: 'given-name', lastName: 'family-name' }}
          birthday={{
            id: 'loyaltyBirthday',
            labels: { legend: t('join.birthday'), month: t('join.birthMonth'), day: t('join.birthDay') },
            hint: t('join.birthdayHint'),
            locale,
          }}
          onStartOver={startOver}
          onSubmit={(names) => create.mutate({ names, proof: step.proof, referral: referralCode })}
          submit={{ ...submit, busy: create.isPending }}
        />
      </section>
    );
  }

  if (step.at === 'code') {
    // A wrong, expired or used-up code: its reason (shown in red); anything else the support text.
    const confirmError = confirm.isError ? errors.code(confirm.error) : send.isError ? errors.member(send.error) : null;
    return (
      <CodeStep
        key={codeRound}
        email={email}
        validMinutes={step.validMinutes}
        resent={resent && send.isSuccess && !send.isPending}
        error={confirmError}
        busy={confirm.isPending}
        sending={send.isPending}
        onSubmit={(code) => confirm.mutate(code)}
        onSendAgain={sendAgain}
        onStartOver={startOver}
      />
    );
  }

  const sendError = send.isError ? errors.member(send.error) : null;
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-email-heading">
      <PageHeading id="loyalty-email-heading">{t('heading')}</PageHeading>
      <p className="panel__intro">{t('signIn.intro')}</p>
      <LiveAlert message={sendError} />
      <EmailForm
        id="loyaltyEmail"
        label={t('signIn.email')}
        autoComplete="email"
        email={typedEmail ?? remembered ?? ''}
        onEmailChange={setEmail}
        onSubmit={(value) => {
          setEmail(value);
          send.mutate(value);
        }}
        submit={{
          label: t('signIn.continue'),
          busyLabel: t('submitting'),
          busy: send.isPending,
          look: MAIN_BUTTON,
        }}
      />
      <p className="mt-4 mb-0">{t.rich('signIn.member', { link: (text) => <Link to="/loyalty/statement">{text}</Link> })}</p>
    </section>
  );
}

/** The code step: the 6 digits mailed to the email, a new code, or Start Over. */
function CodeStep(props: {
  email: string;
  validMinutes: number;
  resent: boolean;
  error: string | null;
  busy: boolean;
  sending: boolean;
  onSubmit: (code: string) => void;
  onSendAgain: () => void;
  onStartOver: () => void;
}) {
  const [code, setCode] = useState('');
  const t = useTranslations('loyalty');
  const valid = CODE_PATTERN.test(code.trim());
  const submitted = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid) props.onSubmit(code.trim());
  };
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-code-heading">
      <PageHeading id="loyalty-code-heading">{t('code.heading')}</PageHeading>
      <p className="panel__intro">{t.rich('code.intro', { email: props.email, minutes: props.validMinutes, strong: emailStrong })}</p>
      <div role="status">{props.resent ? <p className="loyalty-note">{t('code.resent')}</p> : null}</div>
      <LiveAlert message={props.error} />
      <Form noValidate onSubmit={submitted}>
        <TextField
          id="loyaltyCode"
          label={t('code.label')}
          hint={t('code.hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
        <BusyButton
          type="submit"
          variant="primary"
          size="lg"
          className="w-100"
          disabled={!valid}
          busy={props.busy}
          busyLabel={t('submitting')}
        >
          {t('code.confirm')}
        </BusyButton>
      </Form>
      <div className="actions mt-3">
        <Button variant="outline-secondary" onClick={props.onStartOver}>
          {t('startOver')}
        </Button>
        <BusyButton variant="outline-primary" onClick={props.onSendAgain} busy={props.sending} busyLabel={t('code.sending')}>
          {t('code.sendAgain')}
        </BusyButton>
      </div>
    </section>
  );
}

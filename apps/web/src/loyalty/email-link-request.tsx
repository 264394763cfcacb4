// "Email me a link": a guest page that sends a link by email (the loyalty statement, the
// privacy request) asks for the email here, then says the link is on its way. The answer reads
// the same whether or not the email is known, so the page says "if"; each page words its own
// heading, intro and what the link opens; the form's own words are the catalogue's (common.emailLink).
import { useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslations } from 'use-intl';
import { MAIN_BUTTON } from '../ui/busy-button.tsx';
import { LiveAlert } from '../ui/live-alert.tsx';
import { PageHeading } from '../ui/page-heading.tsx';
import { EmailForm } from './member-forms.tsx';

/** What the server answers a link request: the email it was asked for and how long a link works. */
interface LinkSent {
  email: string;
  validHours: number;
}

/** The request's state, as a TanStack mutation gives it. */
interface LinkRequest {
  isSuccess: boolean;
  isPending: boolean;
  data: LinkSent | undefined;
  reset: () => void;
  mutate: (email: string) => void;
}

export function EmailLinkRequest({
  name,
  heading,
  initialEmail = '',
  request,
  error,
  notice,
  intro,
  sent,
  sentHint,
  children,
}: {
  /** Names the headings (`${name}-request-heading`, `${name}-sent-heading`) and the field (`${name}Email`). */
  name: string;
  heading: string;
  initialEmail?: string;
  request: LinkRequest;
  /** The failure of the last request, in the page's words. */
  error: string | null;
  /** Above the intro: why the page asks again (a refused link). */
  notice?: ReactNode;
  intro: ReactNode;
  /** The status once sent: where the link went, if the email is known. */
  sent: (answer: LinkSent) => ReactNode;
  /** What to do when no mail comes. */
  sentHint: string;
  /** Below the form (a way back). */
  children?: ReactNode;
}) {
  const [email, setEmail] = useState(initialEmail);
  const t = useTranslations('common.emailLink');
  if (request.isSuccess && request.data) {
    return (
      <section className="panel panel--narrow" aria-labelledby={`${name}-sent-heading`}>
        <PageHeading id={`${name}-sent-heading`}>{t('sentHeading')}</PageHeading>
        <p className="panel__intro" role="status">
          {sent(request.data)}
        </p>
        <p>{sentHint}</p>
        <Button variant="outline-secondary" onClick={() => request.reset()}>
          {t('another')}
        </Button>
      </section>
    );
  }
  return (
    <section className="panel panel--narrow" aria-labelledby={`${name}-request-heading`}>
      <PageHeading id={`${name}-request-heading`}>{heading}</PageHeading>
      {notice}
      <p className="panel__intro">{intro}</p>
      <LiveAlert message={error} />
      <EmailForm
        id={`${name}Email`}
        label={t('email')}
        autoComplete="email"
        email={email}
        onEmailChange={setEmail}
        onSubmit={(value) => request.mutate(value)}
        submit={{
          label: t('submit'),
          busyLabel: t('busy'),
          busy: request.isPending,
          look: MAIN_BUTTON,
        }}
      />
      {children}
    </section>
  );
}

// /privacy/: a guest asks for the link to everything held about their email. The answer reads
// the same whether or not anything is held (the server mails the link only when it is).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { describeRequestError } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailForm } from '../../loyalty/member-forms.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { usePrivacyLink } from './privacy-api.ts';
import './privacy.css';

export function PrivacyRequestPage({ notice }: { notice?: string | undefined }) {
  const site = useSiteInfo();
  const [email, setEmail] = useState('');
  const request = usePrivacyLink();

  if (request.isSuccess) {
    return (
      <section className="panel panel--narrow" aria-labelledby="privacy-sent-heading">
        <PageHeading id="privacy-sent-heading">Check Your Email</PageHeading>
        <p className="panel__intro" role="status">
          If we hold anything about <strong className="text-break">{request.data.email}</strong>, a link to it is on its way. It works for{' '}
          {request.data.validHours} hours.
        </p>
        <p>Nothing after a few minutes? Check your spam folder, or try the email you used for your tickets or membership.</p>
        <Button variant="outline-secondary" onClick={() => request.reset()}>
          Use Another Email
        </Button>
      </section>
    );
  }
  return (
    <section className="panel panel--narrow" aria-labelledby="privacy-request-heading">
      <PageHeading id="privacy-request-heading">Your Data</PageHeading>
      {notice ? <p className="privacy-note">{notice}</p> : null}
      <p className="panel__intro">
        See everything {site?.brandName ?? 'we'} {site ? 'holds' : 'hold'} about you (tickets, registrations, shares, photos, Brownie
        points, mails), download it, or delete it. Enter your email and we will email you a link.
      </p>
      <LiveAlert
        message={
          request.isError
            ? describeRequestError(request.error, {
                networkError: 'We could not reach the server. Check your connection and try again.',
                failure: `We could not send the link just now. Please try again${site ? `, or email ${site.supportEmail}` : ''}.`,
              })
            : null
        }
      />
      <EmailForm
        id="privacyEmail"
        autoComplete="email"
        email={email}
        onEmailChange={setEmail}
        onSubmit={(value) => request.mutate(value)}
        submit={{
          label: 'Email Me a Link',
          busyLabel: 'Sending...',
          busy: request.isPending,
          look: { variant: 'primary', size: 'lg', className: 'w-100 mt-2' },
        }}
      />
    </section>
  );
}

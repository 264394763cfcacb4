// /privacy/: a guest asks for the link to everything held about their email. The answer reads
// the same whether or not anything is held (the server mails the link only when it is).
import { describeRequestError } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailLinkRequest } from '../../loyalty/email-link-request.tsx';
import { usePrivacyLink } from './privacy-api.ts';
import './privacy.css';

export function PrivacyRequestPage({ notice }: { notice?: string | undefined }) {
  const site = useSiteInfo();
  const request = usePrivacyLink();
  return (
    <EmailLinkRequest
      name="privacy"
      heading="Your Data"
      request={request}
      error={
        request.isError
          ? describeRequestError(request.error, {
              networkError: 'We could not reach the server. Check your connection and try again.',
              failure: `We could not send the link just now. Please try again${site ? `, or email ${site.supportEmail}` : ''}.`,
            })
          : null
      }
      notice={notice ? <p className="privacy-note">{notice}</p> : null}
      intro={`See everything ${site?.brandName ?? 'we'} ${site ? 'holds' : 'hold'} about you (tickets, registrations, shares, photos, Brownie points, mails), download it, or delete it. Enter your email and we will email you a link.`}
      sent={(answer) => (
        <>
          If we hold anything about <strong className="text-break">{answer.email}</strong>, a link to it is on its way. It works for{' '}
          {answer.validHours} hours.
        </>
      )}
      sentHint="Nothing after a few minutes? Check your spam folder, or try the email you used for your tickets or membership."
    />
  );
}

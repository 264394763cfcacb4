// /privacy/: a guest asks for the link to everything held about their email. The answer reads
// the same whether or not anything is held (the server mails the link only when it is).
import { useTranslations } from 'use-intl';
import { useRequestErrors } from '../../lib/request-errors.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { EmailLinkRequest } from '../../loyalty/email-link-request.tsx';
import type { PrivacyLinkRefusal } from '@boardwalk/contract/privacy';
import { usePrivacyLink } from './privacy-api.ts';
import './privacy.css';

/** The request; `refused`: why the link that led here was refused, said above the intro. */
export function PrivacyRequestPage({ refused }: { refused?: PrivacyLinkRefusal | undefined }) {
  const site = useSiteInfo();
  const request = usePrivacyLink();
  const t = useTranslations('privacy');
  const describe = useRequestErrors();
  return (
    <EmailLinkRequest
      name="privacy"
      heading={t('heading')}
      request={request}
      error={
        request.isError
          ? describe(request.error, {
              networkError: t('networkError'),
              failure: site ? t('request.failure', { supportEmail: site.supportEmail }) : t('request.failureNoSite'),
            })
          : null
      }
      notice={refused ? <p className="privacy-note">{t(`refused.${refused}`)}</p> : null}
      intro={t('request.intro', { brand: site?.brandName ?? 'none' })}
      sent={(answer) =>
        t.rich('request.sent', {
          email: answer.email,
          strong: (text) => <strong className="text-break">{text}</strong>,
          hours: answer.validHours,
        })
      }
      sentHint={t('request.sentHint')}
    />
  );
}

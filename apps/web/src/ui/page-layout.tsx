import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslations } from 'use-intl';
import { useSiteInfo } from '../lib/site.ts';
import { LanguageSwitch } from './language-switch.tsx';

/** Every guest page: a header with the brand and the language switch, the main content, a help line and the link to the guest's own data. */
export function PageLayout({ children }: { children: ReactNode }) {
  const site = useSiteInfo();
  const t = useTranslations('common');
  return (
    <div className="page">
      <a className="visually-hidden-focusable skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="site-header">
        <div className="page-width site-header__inner">
          {/* Named "Home" until the brand name has loaded, so the link always has a name. */}
          <Link to="/" className="site-header__brand" aria-label={site ? undefined : t('home')}>
            <img src="/logo.svg" alt="" width={36} height={36} />
            <span>{site?.brandName ?? '\u00a0'}</span>
          </Link>
          <LanguageSwitch />
        </div>
      </header>
      <main id="main" className="page-width page__main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="page-width">
          {site ? (
            <p className="mb-1">
              {t.rich('help', {
                supportEmail: site.supportEmail,
                email: (text) => <a href={`mailto:${site.supportEmail}`}>{text}</a>,
              })}
            </p>
          ) : null}
          <p className="mb-0">
            <Link to="/privacy/">{t('privacyLink')}</Link>
          </p>
        </div>
      </footer>
    </div>
  );
}

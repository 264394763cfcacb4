import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteInfo } from '../lib/site.ts';

/** Every guest page: a header with the brand, the main content, a help line and the link to the guest's own data. */
export function PageLayout({ children }: { children: ReactNode }) {
  const site = useSiteInfo();
  return (
    <div className="page">
      <a className="visually-hidden-focusable skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="page-width site-header__inner">
          {/* Named "Home" until the brand name has loaded, so the link always has a name. */}
          <Link to="/" className="site-header__brand" aria-label={site ? undefined : 'Home'}>
            <img src="/logo.svg" alt="" width={36} height={36} />
            <span>{site?.brandName ?? '\u00a0'}</span>
          </Link>
        </div>
      </header>
      <main id="main" className="page-width page__main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="page-width">
          {site ? (
            <p className="mb-1">
              Need help? Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or visit guest services.
            </p>
          ) : null}
          <p className="mb-0">
            <Link to="/privacy/">Your data and privacy</Link>
          </p>
        </div>
      </footer>
    </div>
  );
}

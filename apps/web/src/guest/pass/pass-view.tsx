import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import { useSiteInfo } from '../../lib/site.ts';
import { OfflineNote } from '../../ui/offline-note.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { WalletActions } from '../wallet/wallet-actions.tsx';
import { ShareSection } from '../share/share-section.tsx';
import { hasShareSection } from '../share/share-rules.ts';
import { PassCard } from '../ticket/pass-card.tsx';
import type { PassCredentials } from '../ticket/pass-route.ts';
import { isOwnPassholder } from './passholder-rules.ts';

/** A chunk of its own: only a passholder's own guest loads it (the guest pages' first screens stay small). */
const PassholderSections = lazy(() => import('./passholder-sections.tsx').then((m) => ({ default: m.PassholderSections })));

interface PassViewProps {
  order: PassOrder;
  /** How the page reached the pass (the wallet calls use the same). */
  credentials: PassCredentials;
  /** Set when the pass is the device's copy, shown with no network: when it was shown. */
  shownAt?: string | undefined;
  /** Set when the guest may edit the registration. */
  onEditRegistration?: (() => void) | undefined;
  onStartOver: () => void;
}

/** The loaded pass: the card and the page's buttons. */
export function PassView({ order, credentials, shownAt, onEditRegistration, onStartOver }: PassViewProps) {
  const site = useSiteInfo();
  const t = useTranslations();
  return (
    <section className="pass-view" aria-labelledby="pass-heading">
      <PageHeading id="pass-heading">{order.sharedWith ? t('pass.heading.shared') : t('pass.heading.own')}</PageHeading>
      {shownAt ? <OfflineNote shownAt={shownAt} /> : null}
      <PassCard order={order} brandName={site?.brandName ?? null} />
      {/* With no network only the card shows: the wallet, share and photo actions all need the server. */}
      {shownAt ? null : (
        <>
          <WalletActions order={order} credentials={credentials} brandName={site?.brandName ?? null} />
          {hasShareSection(order) ? <ShareSection order={order} /> : null}
          {isOwnPassholder(order) ? (
            <Suspense fallback={null}>
              <PassholderSections order={order} />
            </Suspense>
          ) : null}
        </>
      )}
      <div className="actions actions--center">
        {onEditRegistration ? (
          <Button variant="outline-primary" onClick={onEditRegistration}>
            {t('pass.editRegistration')}
          </Button>
        ) : null}
        <Button variant="outline-secondary" onClick={onStartOver}>
          {t('ticket.startOver')}
        </Button>
      </div>
    </section>
  );
}

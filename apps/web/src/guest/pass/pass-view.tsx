import Button from 'react-bootstrap/Button';
import type { PassOrder } from '@boardwalk/contract/pass';
import { useSiteInfo } from '../../lib/site.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { PassCard } from './pass-card.tsx';

interface PassViewProps {
  order: PassOrder;
  /** Set when the guest may edit the registration. */
  onEditRegistration?: (() => void) | undefined;
  onStartOver: () => void;
}

/** The loaded pass: the card and the page's buttons. */
export function PassView({ order, onEditRegistration, onStartOver }: PassViewProps) {
  const site = useSiteInfo();
  return (
    <section className="pass-view" aria-labelledby="pass-heading">
      <PageHeading id="pass-heading">{order.sharedWith ? 'Shared Pass' : 'Your Pass'}</PageHeading>
      <PassCard order={order} brandName={site?.brandName ?? null} />
      <div className="actions actions--center">
        {onEditRegistration ? (
          <Button variant="outline-primary" onClick={onEditRegistration}>
            Edit Registration
          </Button>
        ) : null}
        <Button variant="outline-secondary" onClick={onStartOver}>
          Start Over
        </Button>
      </div>
    </section>
  );
}

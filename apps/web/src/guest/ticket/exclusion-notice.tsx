import { useTranslations } from 'use-intl';
import { StartOverActions } from './start-over.tsx';
import type { PassOrder } from '@boardwalk/contract/pass';
import { PageHeading } from '../../ui/page-heading.tsx';

/** An order with an exclusion message: its order id, barcode and the message. */
/** Shared views answer no order id, so only the barcode is shown to them. */
export function ExclusionNotice({ order, onStartOver }: { order: PassOrder; onStartOver: () => void }) {
  const t = useTranslations('ticket');
  return (
    <section className="panel panel--narrow" aria-labelledby="exclusion-heading">
      <PageHeading id="exclusion-heading">{t('exclusion.heading')}</PageHeading>
      <p className="notice" data-testid="exclusion-message">
        {order.excluded}
      </p>
      <dl className="facts">
        {order.orderId ? (
          <div>
            <dt>{t('order.orderId')}</dt>
            <dd>{order.orderId}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('order.barcode')}</dt>
          <dd>{order.barcode}</dd>
        </div>
      </dl>
      <StartOverActions onStartOver={onStartOver} />
    </section>
  );
}

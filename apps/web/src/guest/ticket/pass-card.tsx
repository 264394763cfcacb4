import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import { readableColors } from '../../lib/color.ts';
import { fullName, useFormats } from '../../lib/format.ts';
import { PassBarcode } from './barcode-slot.tsx';
import { isStoredValueCard, purchaserName, showsBarcode, showsPhoto, ticketholderName, voidReasons } from './pass-rules.ts';
import './pass-card.css';

interface Detail {
  label: string;
  value: string;
}

type CardWords = ReturnType<typeof useTranslations<'ticket.card'>>;

function details(order: PassOrder, formats: ReturnType<typeof useFormats>, t: CardWords): Detail[] {
  const rows: Detail[] = [];
  const holder = ticketholderName(order);
  if (order.sharedWith) {
    if (holder) rows.push({ label: t('primaryTicketholder'), value: holder });
    rows.push({ label: t('sharedWith'), value: fullName(order.sharedWith.firstName, order.sharedWith.lastName) });
  } else if (holder) {
    rows.push({ label: t('ticketholder'), value: holder });
  }
  const purchaser = purchaserName(order);
  if (purchaser) rows.push({ label: t('purchaser'), value: purchaser });
  if (order.orderDate) rows.push({ label: t('orderDate'), value: formats.date(order.orderDate) });
  if (order.redeemed) rows.push({ label: t('redeemed'), value: formats.dateTime(order.redeemed) });
  if (order.expires) rows.push({ label: t('expires'), value: formats.date(order.expires) });
  return rows;
}

/** The pass or ticket card: readable colours, the holder, the balance, the barcode (dimmed and tagged when void). */
export function PassCard({ order, brandName }: { order: PassOrder; brandName: string | null }) {
  const colors = readableColors(order.backgroundColor, order.foregroundColor);
  const reasons = voidReasons(order);
  const isVoid = reasons.length > 0;
  const storedValue = isStoredValueCard(order);
  const formats = useFormats();
  const t = useTranslations('ticket.card');
  const style = { backgroundColor: colors.background, color: colors.foreground, '--pass-fg': colors.foreground } as CSSProperties;

  return (
    <article
      className={`pass-card${isVoid ? ' pass-card--void' : ''}`}
      style={style}
      aria-labelledby="pass-product"
      data-void={isVoid ? reasons.join(' ') : undefined}
    >
      <div className="pass-card__top">
        <div className="pass-card__brand">
          <img src="/logo.svg" alt="" width={44} height={44} />
          <span>{brandName}</span>
        </div>
        <div className="pass-card__balance">
          <span className="pass-card__label">{storedValue ? t('credits') : t('balance')}</span>
          <span className="pass-card__balance-value" data-testid="pass-balance">
            {storedValue ? formats.credits(order.credits) : formats.usd(order.cash)}
          </span>
          {order.barcodeHash ? (
            <Link to={`/stored-value/${order.barcodeHash}`} className="pass-card__balance-link">
              {t('viewBalance')}
            </Link>
          ) : null}
        </div>
      </div>

      {isVoid ? (
        <p className="pass-card__void" data-testid="pass-void">
          <span className="pass-card__void-word">{t('void')}</span> {reasons.map((reason) => t(`voidReasons.${reason}`)).join(' · ')}
        </p>
      ) : null}

      {showsPhoto(order) && order.photoUid ? (
        <div className="pass-card__photo">
          <img
            src={`/api/download/${encodeURIComponent(order.photoUid)}/photo.png`}
            alt={ticketholderName(order) ? t('photoOf', { name: ticketholderName(order) }) : t('photo')}
            width={480}
            height={360}
            data-testid="pass-photo"
          />
        </div>
      ) : null}

      <div className="pass-card__product">
        <span className="pass-card__label">{t('product')}</span>
        <h2 id="pass-product" className="pass-card__product-name">
          {order.product}
          {order.refunded ? <span className="pass-card__note">{t('refunded')}</span> : null}
        </h2>
      </div>

      <dl className="pass-card__details">
        {details(order, formats, t).map(({ label, value }) => (
          <div key={label} className="pass-card__detail">
            <dt className="pass-card__label">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>

      {showsBarcode(order) ? (
        <PassBarcode value={order.barcode} isVoid={isVoid} testId="pass-barcode">
          {isVoid ? <span className="pass-card__barcode-void">{t('void')}</span> : null}
        </PassBarcode>
      ) : null}
      {showsBarcode(order) ? <p className="pass-card__disclaimer">{t('disclaimer')}</p> : null}
    </article>
  );
}

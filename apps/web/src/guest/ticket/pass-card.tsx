import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import type { PassOrder } from '@boardwalk/contract/pass';
import { readableColors } from '../../lib/color.ts';
import { fullName, useFormats } from '../../lib/format.ts';
import { PassBarcode } from './barcode-slot.tsx';
import { isStoredValueCard, passTexts, purchaserName, showsBarcode, showsPhoto, ticketholderName, voidReasons } from './pass-rules.ts';
import './pass-card.css';

interface Detail {
  label: string;
  value: string;
}

function details(order: PassOrder, formats: ReturnType<typeof useFormats>): Detail[] {
  const rows: Detail[] = [];
  const holder = ticketholderName(order);
  if (order.sharedWith) {
    if (holder) rows.push({ label: 'Primary Ticketholder', value: holder });
    rows.push({ label: 'Shared With', value: fullName(order.sharedWith.firstName, order.sharedWith.lastName) });
  } else if (holder) {
    rows.push({ label: 'Ticketholder', value: holder });
  }
  const purchaser = purchaserName(order);
  if (purchaser) rows.push({ label: 'Purchaser', value: purchaser });
  if (order.orderDate) rows.push({ label: 'Order Date', value: formats.date(order.orderDate) });
  if (order.redeemed) rows.push({ label: 'Redeemed', value: formats.dateTime(order.redeemed) });
  if (order.expires) rows.push({ label: 'Expires', value: formats.date(order.expires) });
  return rows;
}

/** The pass or ticket card: readable colours, the holder, the balance, the barcode (dimmed and tagged when void). */
export function PassCard({ order, brandName }: { order: PassOrder; brandName: string | null }) {
  const colors = readableColors(order.backgroundColor, order.foregroundColor);
  const reasons = voidReasons(order);
  const isVoid = reasons.length > 0;
  const storedValue = isStoredValueCard(order);
  const formats = useFormats();
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
          <span className="pass-card__label">{storedValue ? 'Credits' : 'Balance'}</span>
          <span className="pass-card__balance-value" data-testid="pass-balance">
            {storedValue ? formats.credits(order.credits) : formats.usd(order.cash)}
          </span>
          {order.barcodeHash ? (
            <Link to={`/stored-value/${order.barcodeHash}`} className="pass-card__balance-link">
              View Balance
            </Link>
          ) : null}
        </div>
      </div>

      {isVoid ? (
        <p className="pass-card__void" data-testid="pass-void">
          <span className="pass-card__void-word">Void</span> {reasons.join(' · ')}
        </p>
      ) : null}

      {showsPhoto(order) && order.photoUid ? (
        <div className="pass-card__photo">
          <img
            src={`/api/download/${encodeURIComponent(order.photoUid)}/photo.png`}
            alt={ticketholderName(order) ? `Photo of ${ticketholderName(order)}` : 'Passholder photo'}
            width={480}
            height={360}
            data-testid="pass-photo"
          />
        </div>
      ) : null}

      <div className="pass-card__product">
        <span className="pass-card__label">Product</span>
        <h2 id="pass-product" className="pass-card__product-name">
          {order.product}
          {order.refunded ? <span className="pass-card__note">Refunded</span> : null}
        </h2>
      </div>

      <dl className="pass-card__details">
        {details(order, formats).map(({ label, value }) => (
          <div key={label} className="pass-card__detail">
            <dt className="pass-card__label">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>

      {showsBarcode(order) ? (
        <PassBarcode value={order.barcode} isVoid={isVoid} testId="pass-barcode">
          {isVoid ? <span className="pass-card__barcode-void">Void</span> : null}
        </PassBarcode>
      ) : null}
      {showsBarcode(order) ? <p className="pass-card__disclaimer">{passTexts.disclaimer}</p> : null}
    </article>
  );
}

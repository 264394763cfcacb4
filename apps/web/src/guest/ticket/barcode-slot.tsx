// Where a page shows a barcode (the pass card, the stored-value page). The Code 128 graphic
// (barcode-graphic.tsx) is a small chunk of its own, fetched when a barcode is shown, or before
// by preloadBarcodeGraphic when a page knows it will show one; the digits show at once and the
// graphic fills the space kept for it. If the chunk cannot be fetched the digits remain.
// A state set when the chunk arrives rather than React.lazy: React holds back content that
// replaces a Suspense fallback (up to 300 ms), which a pass opened from the device with no
// network at the gate should not wait for; once fetched, the graphic renders at once.
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';

type BarcodeGraphicComponent = typeof import('./barcode-graphic.tsx').default;
interface BarcodeProps {
  value: string;
  isVoid: boolean;
}

let loaded: BarcodeGraphicComponent | undefined;
const loadBarcodeGraphic = () =>
  import('./barcode-graphic.tsx').then(({ default: graphic }) => {
    loaded = graphic;
    return graphic;
  });

/** Fetches the graphic's chunk now (a page about to show a barcode). */
export const preloadBarcodeGraphic = () => void loadBarcodeGraphic().catch(() => undefined);

export function BarcodeSlot(props: BarcodeProps) {
  const [Graphic, setGraphic] = useState(() => loaded);
  useEffect(() => {
    if (Graphic) return;
    let mounted = true;
    loadBarcodeGraphic().then(
      (graphic) => mounted && setGraphic(() => graphic),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [Graphic]);
  return Graphic ? <Graphic {...props} /> : null;
}

/**
 * A barcode as a page shows it: its label, its graphic and its digits (`testId` names the
 * digits), then `children` (the pass card's Void).
 */
export function PassBarcode({
  className,
  testId,
  children,
  ...barcode
}: BarcodeProps & { className?: string; testId: string; children?: ReactNode }) {
  const t = useTranslations('ticket.barcode');
  return (
    <div className={className ? `pass-card__barcode ${className}` : 'pass-card__barcode'}>
      <span className="pass-card__barcode-label">{t('label')}</span>
      <div className="pass-card__barcode-graphic">
        <BarcodeSlot {...barcode} />
      </div>
      <span className="pass-card__barcode-value" data-testid={testId}>
        {barcode.value}
      </span>
      {children}
    </div>
  );
}

import type { CSSProperties } from 'react';
import { useTranslations } from 'use-intl';
import { useScreenWakeLock } from '../../lib/screen-wake-lock.ts';
import { code128Symbol, QUIET_ZONE_MODULES, type Code128Symbol } from './code128.ts';

/** The symbol, or null (the digits alone) rather than an error that would take the card down. */
function encode(value: string): Code128Symbol | null {
  try {
    return code128Symbol(value);
  } catch (error) {
    console.error('The barcode could not be drawn', error);
    return null;
  }
}

/**
 * The pass barcode as a Code 128 graphic: black bars on white with the quiet zones inside the
 * SVG, so it scans wherever it is placed. Its own chunk (pass-card.tsx loads it lazily); the
 * CSS sizes it to whole pixels per module where it fits (pass-card.css). While it shows, the
 * screen is kept on (useScreenWakeLock).
 */
export default function BarcodeGraphic({ value, isVoid }: { value: string; isVoid: boolean }) {
  const t = useTranslations('ticket.barcode');
  const symbol = encode(value);
  // A barcode to scan keeps the screen on; a void one is not scanned.
  useScreenWakeLock(symbol !== null && !isVoid);
  if (!symbol) return null;
  const path = symbol.bars.map(([x, width]) => `M${x} 0h${width}v1h-${width}z`).join('');
  return (
    <svg
      className="pass-card__barcode-svg"
      role="img"
      aria-label={t(isVoid ? 'graphicVoid' : 'graphic', { value })}
      viewBox={`0 0 ${symbol.width} 1`}
      preserveAspectRatio="none"
      style={{ '--barcode-modules': symbol.width } as CSSProperties}
      data-modules={symbol.width}
    >
      <rect width={symbol.width} height={1} fill="#fff" />
      <path className="pass-card__barcode-bars" d={path} fill="#000" shapeRendering="crispEdges" />
      {/* Void: struck out across the bars (the bars are dimmed by pass-card.css). */}
      {isVoid ? (
        <line
          className="pass-card__barcode-strike"
          x1={QUIET_ZONE_MODULES}
          y1={0.92}
          x2={symbol.width - QUIET_ZONE_MODULES}
          y2={0.08}
          stroke="#b42318"
          strokeWidth={4}
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
    </svg>
  );
}

// Pass colours come from staff data; whatever they are, text on the card must stay readable
// (WCAG 2 AA: 4.5:1 for normal text).
const HEX = /^#?([0-9a-f]{6})$/i;
export const MIN_TEXT_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] | null {
  const match = HEX.exec(hex.trim());
  if (!match?.[1]) return null;
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: string, b: string): number | null {
  const ca = channels(a);
  const cb = channels(b);
  if (!ca || !cb) return null;
  const [hi, lo] = [luminance(ca), luminance(cb)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const normalize = (hex: string) => `#${HEX.exec(hex.trim())?.[1]?.toLowerCase() ?? ''}`;

/**
 * The card's colours: the configured ones when they are valid and readable together;
 * otherwise the configured background with black or white text, whichever reads better.
 */
export function readableColors(
  background: string,
  foreground: string,
  fallbackBackground = '#1b4965',
): { background: string; foreground: string } {
  const bg = channels(background) ? normalize(background) : fallbackBackground;
  const fg = channels(foreground) ? normalize(foreground) : null;
  if (fg && (contrastRatio(bg, fg) ?? 0) >= MIN_TEXT_CONTRAST) return { background: bg, foreground: fg };
  const onWhite = contrastRatio(bg, '#ffffff') ?? 0;
  const onBlack = contrastRatio(bg, '#000000') ?? 0;
  return { background: bg, foreground: onWhite >= onBlack ? '#ffffff' : '#000000' };
}

// The Code 128 symbol of a pass barcode, from jsbarcode's encoder alone (its renderers and
// other formats are not bundled). Loaded on demand with the barcode graphic.
import { CODE128 } from 'jsbarcode/bin/barcodes/CODE128/index.js';

/** Light modules on each side of the bars: Code 128 asks for at least 10 (ISO/IEC 15417). */
export const QUIET_ZONE_MODULES = 10;

export interface Code128Symbol {
  /** Module count including both quiet zones. */
  width: number;
  /** The dark bars as [start module, width in modules], quiet zone included in the offset. */
  bars: [number, number][];
}

/** The symbol for this text, or null when Code 128 cannot encode it. */
export function code128Symbol(text: string): Code128Symbol | null {
  if (!text) return null;
  const encoder = new CODE128(text, {});
  if (!encoder.valid()) return null;
  const modules = encoder.encode().data;
  const bars: [number, number][] = [];
  for (const run of modules.matchAll(/1+/g)) bars.push([QUIET_ZONE_MODULES + run.index, run[0].length]);
  return { width: modules.length + 2 * QUIET_ZONE_MODULES, bars };
}

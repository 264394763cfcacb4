// The brand images every pass carries (logo and icon at @1x, @2x and @3x), rendered once
// per process from the web app's logo.svg with sharp, and kept in memory.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const DEFAULT_LOGO_SVG = fileURLToPath(new URL('../../../../web/public/logo.svg', import.meta.url));

/** Sizes in points (Apple's pass design guide: icon 29x29, logo at most 160x50). */
const images = { icon: { width: 29, height: 29 }, logo: { width: 50, height: 50 } } as const;
const scales = [1, 2, 3] as const;

const rendered = new Map<string, Promise<Record<string, Buffer>>>();

/** { 'icon.png', 'icon@2x.png', ..., 'logo@3x.png' } rendered from the SVG at svgPath. */
export function renderPassImages(svgPath = DEFAULT_LOGO_SVG): Promise<Record<string, Buffer>> {
  let result = rendered.get(svgPath);
  if (!result) {
    result = render(svgPath);
    rendered.set(svgPath, result);
    result.catch(() => rendered.delete(svgPath));
  }
  return result;
}

async function render(svgPath: string): Promise<Record<string, Buffer>> {
  const svg = await readFile(svgPath);
  const entries = await Promise.all(
    Object.entries(images).flatMap(([name, size]) =>
      scales.map(async (scale) => {
        const png = await sharp(svg, { density: 72 * scale * 4 })
          .resize(size.width * scale, size.height * scale, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
          .png()
          .toBuffer();
        return [scale === 1 ? `${name}.png` : `${name}@${scale}x.png`, png] as const;
      }),
    ),
  );
  return Object.fromEntries(entries);
}

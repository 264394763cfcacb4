// The program logo of loyalty cards: Google fetches it by URL and takes PNG or JPEG only, at
// 660 x 660 (its loyalty pass guide), so the web app's logo.svg is rendered once per process.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const LOGO_SVG = fileURLToPath(new URL('../../../../web/public/logo.svg', import.meta.url));
const SIZE = 660;

let rendered: Promise<Buffer> | null = null;

export function renderProgramLogo(): Promise<Buffer> {
  rendered ??= readFile(LOGO_SVG).then((svg) =>
    sharp(svg, { density: 72 * 8 })
      .resize(SIZE, SIZE, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 1 } })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer(),
  );
  rendered.catch(() => (rendered = null));
  return rendered;
}

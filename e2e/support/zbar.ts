// Reads barcodes in an image the way a scanner would: zbarimg from Debian's zbar-tools
// (scripts/test.mjs installs it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ZBARIMG = process.env.ZBARIMG_PATH ?? 'zbarimg';

/** The text of every barcode zbarimg finds in this PNG, one per symbol; [] when none. */
export function decodeBarcodes(png: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'boardwalk-zbar-'));
  try {
    const file = join(dir, 'barcode.png');
    writeFileSync(file, png);
    const result = spawnSync(ZBARIMG, ['--raw', '-q', file], { encoding: 'utf8' });
    if (result.error) throw new Error(`cannot run ${ZBARIMG} (apt-get install -y zbar-tools): ${result.error.message}`);
    // zbarimg exits 4 when the image holds no barcode it can read.
    if (result.status === 4) return [];
    if (result.status !== 0) throw new Error(`${ZBARIMG} exited with ${result.status}: ${result.stderr}`);
    return result.stdout.split('\n').filter((line) => line !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

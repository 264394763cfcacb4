// The guest pages' initial JavaScript (entry chunk plus its static imports, gzipped), as
// measured by the build (apps/web/vite.config.ts) into apps/web/dist/bundle-size.json.
// global-setup.ts rebuilds the app first when its sources changed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const LIMIT_BYTES = 150 * 1024;

interface BundleSizeReport {
  initialJs: { gzipBytes: number; bytes: number; files: { fileName: string; gzipBytes: number }[] };
}

describe('guest bundle size', () => {
  it('keeps the initial JavaScript of the guest pages under 150 KiB gzipped', () => {
    const report = JSON.parse(readFileSync(new URL('../apps/web/dist/bundle-size.json', import.meta.url), 'utf8')) as BundleSizeReport;
    expect(report.initialJs.files.length).toBeGreaterThan(0);
    expect(report.initialJs.gzipBytes).toBeGreaterThan(10 * 1024);
    expect(report.initialJs.gzipBytes, `initial JS is ${(report.initialJs.gzipBytes / 1024).toFixed(1)} KiB gzipped`).toBeLessThanOrEqual(LIMIT_BYTES);
  });
});

// axe-core in a page, for the browser tests' checks (browser.ts expectNoAxeViolations) and
// bench:axe. No Vitest import: the bench loads it outside a test run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * axe-core is loaded into a document once (minified) and then run by AxeBuilder, which is told
 * it has nothing to load (axeSource 'void 0'). AxeBuilder sends its 1.2 MB source through the
 * browser connection at every analyze(), twice in legacy mode (analyze, then inject): on the pass
 * page a check cost 0.98 s of the machine's CPU that way against 0.47 s with the source loaded once
 * for two checks (`npm run bench:axe`); a state checked at both widths is one document.
 */
const axeMinified = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function loadAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    const loaded = await frame.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function');
    if (!loaded) await frame.evaluate(axeMinified);
  }
}

/**
 * The page's violations of the rules axe runs by default: 96 of axe-core 4.13's 105, all tagged
 * WCAG 2.0 to 2.2 A/AA or best practice (off by default: target-size, complementary landmarks at
 * the top level, and two deprecated rules). Legacy mode runs axe in the page itself. The default
 * gathers each frame's partial results and finishes them in a blank page it opens beside, for
 * cross-origin frames, which the guest and staff pages have none of: that page cost 1.7 s of a 3 s
 * check (measured on the pass page). resultTypes: only the violations are gathered whole (axe
 * keeps one node of each other result): 0.43 to 0.38 s of CPU a check on the pass page.
 */
export async function axeViolations(page: Page) {
  await loadAxe(page);
  const results = await new AxeBuilder({ page, axeSource: 'void 0' })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations;
}

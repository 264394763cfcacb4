// Every guest screen state in a pseudo-language (support/pseudo-language.ts: the English
// catalogue with each message in ⟦ ⟧): a word a guest can read or hear that is outside the
// brackets, and neither data the server sent nor a date Intl wrote, is a sentence written
// outside the catalogue, and fails. The states are guest-states.ts's: the pass page with its
// photo steps, the wristband, stored-value and privacy pages, the loyalty pages and the statement.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, guestTabs, launchBrowser } from '../support/browser.ts';
import { guestStates } from '../support/guest-states.ts';
import { hardCodedWords, pseudoCatalogue, readableTexts, usePseudoLanguage } from '../support/pseudo-language.ts';

/**
 * Loading states show no heading of their own: the title is the prerendered shell's, English
 * under the pseudo-language (a Spanish page arrives in the Spanish shell, with its title).
 */
const LOADING_STATES = new Set(['loading', 'stored-value-loading', 'privacy-data-loading', 'statement-loading']);

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
let catalogue: Awaited<ReturnType<typeof pseudoCatalogue>>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
  catalogue = await pseudoCatalogue(baseUrl());
});
afterAll(async () => {
  await browser?.close();
});

describe('the pseudo-language', () => {
  it('wraps every message of the English catalogue, and is told apart from English', () => {
    expect(catalogue.body).toContain('⟦');
    expect(hardCodedWords('⟦Find Your Pass⟧ ⟦Order ID⟧ Nov 21, 2026 Rosa', '{"firstName":"Rosa"}')).toEqual([]);
    expect(hardCodedWords('⟦Need help? Email ⟦x⟧ or visit guest services.⟧ Loading...', '')).toEqual(['Loading']);
  });

  for (const state of guestStates.filter((s) => !LOADING_STATES.has(s.name))) {
    it(`leaves no word outside the catalogue: ${state.name}`, async () => {
      const guest = await tabs.open({ userAgent: state.userAgent });
      try {
        // What the server sent (names, products, the park's texts): data, not words of the pages.
        const answers: Promise<string>[] = [];
        guest.page.on('response', (res) => {
          if (res.url().includes('/api/')) answers.push(res.text().catch(() => ''));
        });
        await usePseudoLanguage(guest.page);
        await state.open(guest.page);
        // The login page arrives prerendered in English: its heading shows before the app, with
        // the pseudo-language, takes over (a run on a loaded machine read the page in between).
        await expect.poll(() => guest.page.evaluate(() => document.body.innerText)).toContain('⟦');
        const data = (await Promise.all(answers)).join('\n');
        const words = (await readableTexts(guest.page)).flatMap((text) => hardCodedWords(text, data));
        expect([...new Set(words)], `${state.name}: words outside the catalogue`).toEqual([]);
      } finally {
        await guest.close();
      }
    });
  }
});

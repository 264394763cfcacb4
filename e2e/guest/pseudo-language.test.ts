// Every guest screen state in a pseudo-language (support/pseudo-language.ts: the English
// catalogue with each message in ⟦ ⟧): a word a guest can read or hear that is outside the
// brackets, and neither data the server sent nor a date Intl wrote, is a sentence written
// outside the catalogue, and fails. The states are the pass page's (guest-states.ts, with the
// photo steps, the loyalty pages and the statement) and the first screen of every other guest area.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, demo, launchBrowser, openGuestPage, type GuestState } from '../support/browser.ts';
import { guestStates } from '../support/guest-states.ts';
import { hardCodedWords, pseudoCatalogue, readableTexts, usePseudoLanguage } from '../support/pseudo-language.ts';

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

/** The other guest areas, each at its first screen. */
const areaStates: GuestState[] = [
  { name: 'wristband', open: async (page) => (await page.goto('/activate/'), heading(page)) },
  { name: 'privacy-request', open: async (page) => (await page.goto('/privacy/'), heading(page)) },
  { name: 'page-not-found', open: async (page) => (await page.goto('/no/such/page/here'), heading(page)) },
  {
    name: 'stored-value',
    open: async (page) => {
      await page.goto(`/${demo.storedValue.orderId}/${demo.storedValue.barcode}`);
      await page.getByRole('link', { name: 'View Balance' }).click();
      await page.getByTestId('stored-value-credits').waitFor();
    },
  },
];

let browser: Browser;
let catalogue: Awaited<ReturnType<typeof pseudoCatalogue>>;
beforeAll(async () => {
  browser = await launchBrowser();
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

  // The loyalty pages and the statement are among guestStates (loyalty-states.ts). The statement
  // loading shows no heading of its own: the title is the prerendered shell's, English under the
  // pseudo-language (a Spanish page's shell has its Spanish title).
  for (const state of [...guestStates, ...areaStates].filter((s) => s.name !== 'statement-loading')) {
    it(`leaves no word outside the catalogue: ${state.name}`, async () => {
      const guest = await openGuestPage(browser, undefined, { userAgent: state.userAgent });
      try {
        // What the server sent (names, products, the park's texts): data, not words of the pages.
        const answers: Promise<string>[] = [];
        guest.page.on('response', (res) => {
          if (res.url().includes('/api/')) answers.push(res.text().catch(() => ''));
        });
        await usePseudoLanguage(guest.page, catalogue);
        await state.open(guest.page);
        expect(await guest.page.evaluate(() => document.body.innerText)).toContain('⟦');
        const data = (await Promise.all(answers)).join('\n');
        const words = (await readableTexts(guest.page)).flatMap((text) => hardCodedWords(text, data));
        expect([...new Set(words)], `${state.name}: words outside the catalogue`).toEqual([]);
      } finally {
        await guest.close();
      }
    });
  }
});

// Screenshots of every state of the pass page at phone and desktop widths, into
// screenshots/<state>-<width>.png (gitignored) for people to look at; each also checks that
// nothing overflows the viewport horizontally.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openGuestPage, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { guestStates } from '../support/guest-states.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
  describe(`at ${width} px`, () => {
    for (const state of guestStates) {
      it(state.name, async () => {
        const guest = await openGuestPage(browser, width, { userAgent: state.userAgent });
        try {
          await state.open(guest.page);
          await screenshot(guest.page, state.name);
          const overflow = await guest.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, 'horizontal overflow in px').toBe(0);
          expect(unexpectedProblems(guest.problems)).toEqual([]);
        } finally {
          await guest.close();
        }
      });
    }
  });
}

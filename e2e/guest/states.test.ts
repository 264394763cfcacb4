// Every state of the pass page (guest-states.ts, photo-states.ts), in English and, for those with a
// Spanish way in, on a phone set to Spanish (reached and checked by its Spanish words): each state
// is reached once and looked at in the same page at phone width and then desktop width. axe (the
// rules it runs by default, e2e/support/axe.ts; problems are fixed in the app, no rule is disabled)
// at phone width, and at desktop width in Spanish and for the pass actions, which differ by device
// and lay out differently there; with `npm run screenshots`, a screenshot at both widths into
// screenshots/<state>-<width>.png and es-<state>-<width>.png (gitignored) for people to look at;
// nothing may overflow the viewport horizontally. Reaching a state is most of a test's cost (the
// page, the steps): once for both widths halved this file's time against a page per width, and the
// states of a browser and language share one tab (guestTabs), wiped between them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, guestTabs, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { guestStates } from '../support/guest-states.ts';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
});
afterAll(async () => {
  await browser?.close();
});

/** The state on screen at each width: axe where asked, a screenshot (on request), no horizontal overflow. */
async function checkBothWidths(page: Page, file: string, axeAtDesktop: boolean) {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    await page.setViewportSize({ width, height: width === WIDTHS.mobile ? 780 : 900 });
    if (width === WIDTHS.mobile || axeAtDesktop) await expectNoAxeViolations(page);
    await screenshot(page, file);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `horizontal overflow in px at ${width} px`).toBe(0);
  }
}

describe.each([
  { language: 'English', locale: 'en-US', prefix: '' },
  { language: 'Spanish', locale: 'es-US', prefix: 'es-' },
])('in $language', ({ locale, prefix }) => {
  for (const state of guestStates) {
    const open = prefix ? state.spanish : state.open;
    if (!open) continue;
    // Spanish at both widths (issue 49's "every state in Spanish at 360 and 1280 px, axe clean").
    const axeAtDesktop = prefix !== '' || state.name.startsWith('wallet-');
    it(`${state.name}: no axe violations at ${WIDTHS.mobile}${axeAtDesktop ? ` and ${WIDTHS.desktop}` : ''} px`, async () => {
      const guest = await tabs.open({ userAgent: state.userAgent, locale });
      try {
        await open(guest.page);
        await expect(guest.page.locator('html').getAttribute('lang')).resolves.toBe(prefix ? 'es' : 'en');
        await checkBothWidths(guest.page, `${prefix}${state.name}`, axeAtDesktop);
        expect(unexpectedProblems(guest.problems)).toEqual([]);
      } finally {
        await guest.close();
      }
    });
  }
});

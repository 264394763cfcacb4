// Every state of the pass page (guest-states.ts, photo-states.ts), reached once per width:
// axe (WCAG 2.2 A/AA and best practices; problems are fixed in the app, no rule is disabled)
// at phone width, and at desktop width for the pass actions, which differ by device and lay out
// differently there; a screenshot at both widths into screenshots/<state>-<width>.png
// (gitignored) for people to look at; nothing may overflow the viewport horizontally.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openGuestPage, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
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
      const axe = width === WIDTHS.mobile || state.name.startsWith('wallet-');
      it(`${state.name}${axe ? ': no axe violations' : ''}`, async () => {
        const guest = await openGuestPage(browser, width, { userAgent: state.userAgent });
        try {
          await state.open(guest.page);
          if (axe) await expectNoAxeViolations(guest.page);
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

// The pass page's states on a phone set to Spanish (those with a Spanish way in): the page in
// Spanish, reached and checked by its Spanish words; axe and no overflow at phone width and then,
// in the same page, at desktop width; a screenshot at each (es-<state>-<width>.png).
describe('in Spanish', () => {
  for (const state of guestStates) {
    const { spanish } = state;
    if (!spanish) continue;
    it(`${state.name}: Spanish words, no axe violations at ${WIDTHS.mobile} and ${WIDTHS.desktop} px`, async () => {
      const guest = await openGuestPage(browser, WIDTHS.mobile, { userAgent: state.userAgent, locale: 'es-US' });
      try {
        await spanish(guest.page);
        await expect(guest.page.locator('html').getAttribute('lang')).resolves.toBe('es');
        for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
          await guest.page.setViewportSize({ width, height: width === WIDTHS.mobile ? 780 : 900 });
          await expectNoAxeViolations(guest.page);
          await screenshot(guest.page, `es-${state.name}`);
          const overflow = await guest.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `horizontal overflow in px at ${width} px`).toBe(0);
        }
        expect(unexpectedProblems(guest.problems)).toEqual([]);
      } finally {
        await guest.close();
      }
    });
  }
});

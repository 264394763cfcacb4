// axe (WCAG 2.2 A/AA and best practices) on every state of the pass page, at phone width;
// problems are fixed in the app, no rule is disabled.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openGuestPage, WIDTHS } from '../support/browser.ts';
import { guestStates } from '../support/guest-states.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('accessibility', () => {
  for (const state of guestStates) {
    it(`${state.name} has no axe violations`, async () => {
      const guest = await openGuestPage(browser, WIDTHS.mobile, { userAgent: state.userAgent });
      try {
        await state.open(guest.page);
        await expectNoAxeViolations(guest.page);
      } finally {
        await guest.close();
      }
    });
  }

  // The pass actions differ by device and lay out differently at desktop width: checked there too.
  for (const state of guestStates.filter((s) => s.name.startsWith('wallet-'))) {
    it(`${state.name} at desktop width has no axe violations`, async () => {
      const guest = await openGuestPage(browser, WIDTHS.desktop, { userAgent: state.userAgent });
      try {
        await state.open(guest.page);
        await expectNoAxeViolations(guest.page);
      } finally {
        await guest.close();
      }
    });
  }
});

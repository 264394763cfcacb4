// The tabs the guest tests hand from test to test (guestTabs in support/browser.ts): the next
// test gets the same tab with nothing of the last one left in it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forThisState, guestTabs, launchBrowser, WIDTHS } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it('hands the same tab to the next test, wiped: storage, cookies, routes, init scripts, other tabs, listeners, size; never a tab a test holds', async () => {
  const tabs = guestTabs(browser);
  const first = await tabs.open();
  const { page, context } = first;
  forThisState(page, await page.addInitScript(() => localStorage.setItem('from-init-script', 'yes')));
  await page.route('**/healthz', (route) => route.fulfill({ status: 418, body: 'routed' }));
  await context.route('**/readyz', (route) => route.fulfill({ status: 418, body: 'routed' }));
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.setItem('left', 'local');
    sessionStorage.setItem('left', 'session');
    document.cookie = 'left=cookie; path=/';
    console.error('a problem of the first test');
  });
  await expect.poll(() => first.problems.length).toBe(1);
  await context.newPage();
  await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
  await first.close();

  const next = await tabs.open();
  expect(next.page).toBe(page);
  expect(context.pages()).toEqual([page]);
  expect(page.viewportSize()).toEqual({ width: WIDTHS.mobile, height: 780 });
  await page.goto('/');
  const left = await page.evaluate(async () => ({
    local: localStorage.length,
    session: sessionStorage.length,
    cookie: document.cookie,
    health: (await fetch('/healthz')).status,
    ready: (await fetch('/readyz')).status,
  }));
  expect(left).toEqual({ local: 0, session: 0, cookie: '', health: 200, ready: 200 });
  expect(next.problems).toEqual([]);
  await next.close();

  // Another width is another tab, and so is a tab while a test holds it (one that timed out).
  const wide = await tabs.open({ width: WIDTHS.desktop });
  expect(wide.page).not.toBe(page);
  const held = await tabs.open();
  const beside = await tabs.open();
  expect(beside.page).not.toBe(held.page);
  await wide.close();
  await held.close();
  // One tab a kind is kept: the second handed back is closed.
  await beside.close();
  expect(beside.page.isClosed()).toBe(true);
  expect((await tabs.open()).page).toBe(held.page);
});

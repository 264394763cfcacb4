// The stored-value page /stored-value/{barcodeHash} against the real server: the demo's Stored
// Value Card (10000002) with today's attraction usage, a card of its own without usage (made
// through the ticketing feed), an unknown hash, the loading state, and the pass card's View
// Balance link. axe and screenshots (stored-value-*) at 360 and 1280 px. Only one request here
// is a real failed lookup: the per-address throttle is shared with the other browser tests.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StoredValueResponse } from '@boardwalk/contract/stored-value';
import {
  answerWithError,
  baseUrl,
  demo,
  expectNoAxeViolations,
  guestTabs,
  launchBrowser,
  openPass,
  passCard,
  screenshot,
  type Width,
  WIDTHS,
} from '../support/browser.ts';
import { E2E_INTEGRATION_KEY } from '../support/staff-admin.ts';
import { decodeBarcodes } from '../support/zbar.ts';
import { operatingDay } from '../../apps/api/src/platform/park-time.ts';

const FAILURE_HEADING = 'Unable to retrieve ticket card data';
const FAILURE_TEXT = 'This may be a problem with your card or with our systems, please try again later.';
const NOTE = 'Attraction history covers only the current operating day and resets at 2:00 AM.';
const json = { 'Content-Type': 'application/json' };

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
/** The demo card's hash (from its login answer) and what the API answers for it. */
let demoHash: string;
let demoAnswer: StoredValueResponse;
let demoAnsweredAt: Date;
/** A Stored Value Card of this test's own, with no usage. */
let emptyHash: string;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
  demoHash = (await post('/api/login/', demo.storedValue)).barcodeHash as string;
  demoAnswer = (await post('/api/stored-value/', { barcodeHash: demoHash })) as unknown as StoredValueResponse;
  demoAnsweredAt = new Date();

  const orderId = String(80_000_000 + Math.floor(Math.random() * 9_999_999));
  const barcode = `35${orderId}000001`;
  const put = await fetch(`${baseUrl()}/api/integrations/orders/${orderId}`, {
    method: 'PUT',
    headers: { ...json, Authorization: `Bearer ${E2E_INTEGRATION_KEY}` },
    body: JSON.stringify({
      orderDate: '2026-11-20T18:15:00Z',
      purchaser: { firstName: 'Lee', lastName: 'Kim' },
      tickets: [
        {
          barcode,
          product: 'Stored Value Card $20',
          category: 'Stored Value Card',
          holder: { firstName: 'Lee', lastName: 'Kim' },
          isPassholder: false,
          credits: 20,
          cash: 3.5,
          refunded: false,
          isPassActivated: false,
        },
      ],
    }),
  });
  expect(put.status).toBe(201);
  emptyHash = (await post('/api/login/', { orderId, barcode })).barcodeHash as string;
});
afterAll(async () => {
  await browser?.close();
});

/** Runs a test body in a tab of this width and checks the page logged no unexpected errors. */
const inPage = (width: Width, body: (page: Page) => Promise<void>) => tabs.inPage(body, { width });

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const parkTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

async function openCard(page: Page, hash: string) {
  await page.goto(`/stored-value/${hash}`);
  await h1(page).filter({ hasText: 'Stored Value Card' }).waitFor();
}

describe('the stored-value page', () => {
  it("has the demo's usage today: the API answers it in time order", () => {
    expect(demoAnswer.barcode).toBe(demo.storedValue.barcode);
    expect(demoAnswer.timeZone).toBe('America/Los_Angeles');
    // The demo wrote its usage on the operating day the server started on. When the run has
    // since passed 2:00 AM park time, that day is over and the card rightly lists none.
    const sameDay =
      operatingDay(new Date(inject('serversStartedAt')), demoAnswer.timeZone) === operatingDay(demoAnsweredAt, demoAnswer.timeZone);
    const expected = sameDay ? ['Sea Dragon', 'Carousel', 'Ring Toss', 'Pacific Wheel', 'Sea Dragon'] : [];
    expect(demoAnswer.attractions.map((a) => a.attraction)).toEqual(expected);
  });

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`shows credits, cash, the barcode and today's attractions in park time at ${width} px`, () =>
      inPage(width, async (page) => {
        await openCard(page, demoHash);
        await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe('42.5 Credits');
        await expect(page.getByTestId('stored-value-cash').textContent()).resolves.toBe(
          new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(demoAnswer.cash),
        );
        await expect(page.getByTestId('stored-value-barcode').textContent()).resolves.toBe(demo.storedValue.barcode);
        const graphic = page.getByRole('img', { name: `Barcode ${demo.storedValue.barcode}` });
        await graphic.waitFor();
        // The graphic scans as the card's barcode, as a gate scanner would read it off the screen.
        expect(decodeBarcodes(await graphic.screenshot())).toEqual([demo.storedValue.barcode]);
        const rows = await page
          .getByTestId('stored-value-attractions')
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
        expect(rows).toEqual(demoAnswer.attractions.map((a) => [parkTime(a.timestamp), a.attraction, a.location]));
        await expect(page.getByText(NOTE).isVisible()).resolves.toBe(true);
        await expect(page.title()).resolves.toMatch(/^Stored Value Card/);
        await expectNoAxeViolations(page);
        await screenshot(page, 'stored-value-attractions');
      }));

    it(`shows an empty state when the card has no usage today at ${width} px`, () =>
      inPage(width, async (page) => {
        await openCard(page, emptyHash);
        await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe('20 Credits');
        await expect(page.getByTestId('stored-value-cash').textContent()).resolves.toBe('$3.50');
        await expect(page.getByTestId('stored-value-empty').textContent()).resolves.toBe(
          'No attractions visited with this card yet today.',
        );
        await expect(page.getByTestId('stored-value-attractions').count()).resolves.toBe(0);
        await expect(page.getByText(NOTE).isVisible()).resolves.toBe(true);
        await expectNoAxeViolations(page);
        await screenshot(page, 'stored-value-empty');
      }));

    it(`shows a loading state until the answer arrives at ${width} px`, () =>
      inPage(width, async (page) => {
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/stored-value/', async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(`/stored-value/${demoHash}`);
        await page.getByRole('status').getByRole('heading', { name: 'Loading your card…' }).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'stored-value-loading');
        release();
        await h1(page).filter({ hasText: 'Stored Value Card' }).waitFor();
      }));
  }

  it('shows the failure heading and text for an unknown card (a real 404)', () =>
    inPage(WIDTHS.mobile, async (page) => {
      const answers: number[] = [];
      page.on('response', (r) => void (r.url().endsWith('/api/stored-value/') && answers.push(r.status())));
      await page.goto(`/stored-value/${'Z'.repeat(43)}`);
      await h1(page).filter({ hasText: FAILURE_HEADING }).waitFor();
      await expect(page.getByText(FAILURE_TEXT).isVisible()).resolves.toBe(true);
      expect(answers).toEqual([404]);
      // Asking again cannot help: the way out is the home page.
      await expect(page.getByRole('button', { name: 'Try Again' }).count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).resolves.toBe('/');
      await expectNoAxeViolations(page);
      await screenshot(page, 'stored-value-failure');
    }));

  it('shows the failure state at desktop width, and Try Again loads the card once the server answers', () =>
    inPage(WIDTHS.desktop, async (page) => {
      await answerWithError(page, '/api/stored-value/', 503, 'The service is briefly unavailable.');
      await page.goto(`/stored-value/${demoHash}`);
      await h1(page).filter({ hasText: FAILURE_HEADING }).waitFor();
      await expect(page.getByText(FAILURE_TEXT).isVisible()).resolves.toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'stored-value-failure');
      await page.unroute('**/api/stored-value/');
      await page.getByRole('button', { name: 'Try Again' }).click();
      await h1(page).filter({ hasText: 'Stored Value Card' }).waitFor();
      await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe('42.5 Credits');
    }));
});

describe("the Stored Value Card's pass card", () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`links to its balance page at ${width} px`, () =>
      inPage(width, async (page) => {
        await openPass(page, demo.storedValue.orderId, demo.storedValue.barcode);
        const link = passCard(page).getByRole('link', { name: 'View Balance' });
        await link.waitFor();
        await expect(link.getAttribute('href')).resolves.toBe(`/stored-value/${demoHash}`);
        await expectNoAxeViolations(page);
        await screenshot(page, 'stored-value-pass-card');
        await link.click();
        await h1(page).filter({ hasText: 'Stored Value Card' }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/stored-value/${demoHash}`);
        await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe('42.5 Credits');
      }));
  }

  it('has no link on a card that is not a Stored Value Card', () =>
    inPage(WIDTHS.mobile, async (page) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await passCard(page).waitFor();
      await expect(passCard(page).getByRole('link', { name: 'View Balance' }).count()).resolves.toBe(0);
    }));
});

// Chromium through playwright-core, and the page helpers the guest journeys share.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Disposable, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { axeViolations } from './axe.ts';
import { chromiumOptions } from './chromium.ts';
import type { ErrorReason } from '@boardwalk/contract/errors';

/** This worker's server (global-setup.ts starts one per browser worker; VITEST_POOL_ID counts from 1). */
export const baseUrl = (): string => {
  const urls = inject('baseUrls');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length]!;
};

export const WIDTHS = { mobile: 360, desktop: 1280 } as const;
export type Width = (typeof WIDTHS)[keyof typeof WIDTHS];

/**
 * Chromium for a test file, its own (extraArgs add switches: a fake camera). Playwright drives it
 * from the test's process; a connection to one Chromium of the run (launchServer in the global
 * setup) relayed every call through Vitest's main process: 4 % more of the machine's CPU a state
 * checked by axe (`npm run bench:browser-connection`); a launch is once a file (twice in the
 * camera files).
 */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch(chromiumOptions(extraArgs));
}

/**
 * A state of a guest page, reached the way a guest reaches it (guest-states.ts,
 * photo-states.ts), for the states test (axe and screenshots).
 */
export interface GuestState {
  name: string;
  /** The browser to open the state in (the pass actions depend on it); a desktop browser by default. */
  userAgent?: string;
  open(page: Page): Promise<void>;
  /**
   * The same state in Spanish, on a phone set to Spanish (openGuestPage's locale es-US): reached
   * by its Spanish words, waiting for the state's own (states.test.ts, "in Spanish").
   */
  spanish?(page: Page): Promise<void>;
}

export interface GuestPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A fresh browser context (no shared storage) at a phone or desktop width; 1 CSS pixel per
 * screen pixel unless deviceScaleFactor says otherwise (a phone's screen is 2 or 3).
 * The guest pages' offline worker is blocked unless serviceWorkers is 'allow' (the offline
 * tests): left to install itself in the background of every fresh context, fetching and
 * storing the 24 files it keeps, it took 10 % of the states test's CPU (170 to 152 s, measured),
 * and no other test looks at it.
 */
export async function openGuestPage(
  browser: Browser,
  width: Width = WIDTHS.mobile,
  {
    deviceScaleFactor = 1,
    userAgent,
    clientAddress,
    serverUrl,
    serviceWorkers = 'block',
    locale = 'en-US',
  }: {
    deviceScaleFactor?: number;
    userAgent?: string | undefined;
    /** The guest's address as the server sees it (X-Forwarded-For through the trusted loopback): its own throttle counters. */
    clientAddress?: string | undefined;
    /** A server process of the test's own rather than this worker's server. */
    serverUrl?: string | undefined;
    serviceWorkers?: 'allow' | 'block';
    /** The phone's language (its Accept-Language and navigator.languages): es-US for a guest who reads Spanish. */
    locale?: string;
  } = {},
): Promise<GuestPage> {
  const context = await browser.newContext({
    ...(clientAddress && { extraHTTPHeaders: { 'x-forwarded-for': clientAddress } }),
    baseURL: serverUrl ?? baseUrl(),
    viewport: { width, height: width === WIDTHS.mobile ? 780 : 900 },
    deviceScaleFactor,
    ...(userAgent && { userAgent }),
    locale,
    timezoneId: 'America/Los_Angeles',
    serviceWorkers,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page, problems: watchProblems(page), close: () => context.close() };
}

/** Init scripts a state added to a tab that is used again (forThisState): removed when the tab is handed back. */
const stateScripts = new WeakMap<Page, Disposable[]>();

/**
 * An init script a state or test added (page.addInitScript's answer) in a tab from guestTabs,
 * which hands the same tab to the next test and removes it then: every init script added in such
 * a tab must be registered here.
 */
export function forThisState(page: Page, script: Disposable): void {
  stateScripts.set(page, [...(stateScripts.get(page) ?? []), script]);
}

/** What tells guest tabs apart: a tab is opened with these and keeps them. */
type TabOptions = Pick<NonNullable<Parameters<typeof openGuestPage>[2]>, 'userAgent' | 'locale' | 'deviceScaleFactor' | 'clientAddress'> & {
  width?: Width;
};

/**
 * Guest pages for the tests of a file: one tab per width, browser (user agent), language, screen
 * density and guest address, handed from test to test and wiped between them, since a fresh
 * context per test was most of a short test's cost: measured on 22 pass and wallet states, 83 s
 * of the machine's CPU in fresh contexts, 60 s in one tab (the app's files from the context's
 * cache, its scripts compiled in the same renderer). Wiped: the document (the tab goes to a
 * static file of the app's origin, which stops its timers and calls), the tabs it opened, its routes and the
 * context's, its state scripts (forThisState), the origin's storage and cookies, its listeners
 * and its size. A test that needs more than that (a clock, an offline context, the context
 * itself) opens a page of its own (openGuestPage).
 */
export function guestTabs(browser: Browser) {
  // Only tabs no test holds: a test that timed out may still be running in its tab (Vitest does
  // not stop it), so the next test gets another.
  const idle = new Map<string, GuestPage>();
  const open = async ({ width = WIDTHS.mobile, locale = 'en-US', ...options }: TabOptions = {}): Promise<GuestPage> => {
    const key = JSON.stringify([width, locale, options.userAgent, options.deviceScaleFactor, options.clientAddress]);
    const tab = idle.get(key) ?? (await openGuestPage(browser, width, { ...options, locale }));
    idle.delete(key);
    const { context, page } = tab;
    // The previous test's listeners (and the first page's own, from openGuestPage) go.
    for (const event of ['console', 'pageerror', 'request', 'response'] as const) page.removeAllListeners(event);
    const wipe = async () => {
      if (new URL(page.url()).origin === new URL(baseUrl()).origin) await page.evaluate(() => sessionStorage.clear());
      // The app's document goes (its timers and calls stop), replaced by a file of its own origin
      // rather than about:blank: leaving the origin and coming back cost a renderer of its own, the
      // login page opened from about:blank 0.77 s of the machine's CPU against 0.25 to 0.32 s from
      // the same origin (12 loads each). about:blank when a route of the test refuses the file.
      await page.goto('/logo.svg').catch(() => page.goto('about:blank'));
      await Promise.all(
        context
          .pages()
          .filter((other) => other !== page)
          .map((other) => other.close()),
      );
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await Promise.all((stateScripts.get(page) ?? []).map((script) => script.dispose()));
      stateScripts.delete(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(baseUrl()).origin, storageTypes: 'all' });
      await cdp.detach();
      await context.clearCookies();
      await page.setViewportSize({ width, height: width === WIDTHS.mobile ? 780 : 900 });
    };
    // A tab that cannot be wiped (a crashed page) is closed, not handed on, and the test's own error stands.
    const close = async () => {
      try {
        await wipe();
      } catch {
        await tab.close().catch(() => undefined);
        return;
      }
      if (idle.has(key)) await tab.close();
      else idle.set(key, tab);
    };
    return { context, page, problems: watchProblems(page), close };
  };
  // No close: the file's own Chromium (launchBrowser) ends its contexts when it closes.
  return {
    open,
    /** Runs a test body in a tab, then checks the page logged no unexpected errors. */
    inPage: async (body: (page: Page) => Promise<void>, options: TabOptions = {}) => checkedRun(await open(options), body),
  };
}

/** Console errors and page errors from now on (CSP violations are console errors). */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Runs a test body in a fresh guest page, then checks the page logged no unexpected errors. */
export async function inGuestPage(
  browser: Browser,
  width: Width,
  body: (page: Page) => Promise<void>,
  options: Parameters<typeof openGuestPage>[2] = {},
): Promise<void> {
  return checkedRun(await openGuestPage(browser, width, options), body);
}

/** Runs a test body in a guest page, checks the page logged no unexpected errors, and closes (or wipes) it. */
async function checkedRun(guest: GuestPage, body: (page: Page) => Promise<void>): Promise<void> {
  try {
    await body(guest.page);
    expect(unexpectedProblems(guest.problems)).toEqual([]);
  } catch (error) {
    // What the page showed as the test failed, so that a failure seen once (a busy CI machine)
    // can be read from the output.
    const shown = await guest.page
      .evaluate(() => `${location.pathname}: ${(document.getElementById('root')?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 400)}`)
      .catch(() => 'nothing (closed)');
    if (error instanceof Error) error.message += `\nThe page showed ${shown}\nLogged: ${guest.problems.join('; ') || 'nothing'}`;
    throw error;
  } finally {
    await guest.close();
  }
}

/**
 * A fresh page on a server process of the test's own (its baseUrl) at a width, as a guest at
 * clientAddress (its own throttle counters), checked for unexpected console problems at the end.
 */
export async function inServerPage(
  browser: Browser,
  { baseUrl, width, clientAddress }: { baseUrl: string; width: Width; clientAddress: string },
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const problems: string[] = [];
  const context = await browser.newContext({
    baseURL: baseUrl,
    extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
    viewport: { width, height: width === WIDTHS.mobile ? 780 : 900 },
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  try {
    await body(page);
    expect(unexpectedProblems(problems)).toEqual([]);
  } finally {
    await context.close();
  }
}

/**
 * Expected console noise: the browser logs every 4xx/5xx answer and every request a test
 * aborts as a failed resource load (the app shows those as messages); anything else (a CSP
 * violation, a React error) fails the test.
 */
export function unexpectedProblems(problems: string[]): string[] {
  return problems.filter((p) => !/Failed to load resource: (the server responded with a status of [45]\d\d|net::ERR_)/.test(p));
}

/** Devices the pass actions tell apart (lib/device.ts): Apple Wallet on iOS, Google Wallet on Android. */
export const USER_AGENTS = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
} as const;

/** axe judges the page at rest: the pointer off every control, no CSS transition half-way. */
export async function expectNoAxeViolations(page: Page) {
  await page.mouse.move(0, 0);
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  const violations = await axeViolations(page);
  const summary = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
  expect(summary, 'axe violations').toEqual([]);
}

const screenshotDir = fileURLToPath(new URL('../../screenshots/', import.meta.url));

/**
 * Screenshots are for people to look at, not checks: `npm run screenshots` (SCREENSHOTS=1) runs
 * the browser tests writing them; `npm test` does not, since the two of a state (360 and 1280 px,
 * full page) cost the machine 0.71 s of CPU (docs/performance.md, "Measured without a bench
 * command").
 */
export const takeScreenshots = process.env.SCREENSHOTS === '1';

/** Saves screenshots/<state>-<width>.png: the full page, or only region. */
export async function screenshot(page: Page, state: string, region?: Locator) {
  if (!takeScreenshots) return;
  mkdirSync(screenshotDir, { recursive: true });
  const path = `${screenshotDir}${state}-${page.viewportSize()?.width ?? 0}.png`;
  await (region ? region.screenshot({ path }) : page.screenshot({ path, fullPage: true, animations: 'disabled' }));
}

// ---- The pass page --------------------------------------------------------------------

/**
 * Waits for the app to take over the page (React's root on #root). The guest pages come
 * prerendered: a tap before the takeover does nothing (first-screen.test.ts), and on a busy
 * machine the takeover can come after the fields are filled.
 */
export async function appTookOver(page: Page) {
  await page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));
}

export async function lookUp(page: Page, orderId: string, barcode: string) {
  await page.getByLabel('Order ID').fill(orderId);
  await page.getByLabel('Barcode').fill(barcode);
  await appTookOver(page);
  await page.getByRole('button', { name: 'Find My Pass' }).click();
}

/** Opens / and looks up the order with the form. */
export async function openPass(page: Page, orderId: string, barcode: string) {
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
  await lookUp(page, orderId, barcode);
}

export const passCard = (page: Page) => page.locator('article.pass-card');

/** The Code 128 graphic of the pass barcode (loaded on demand after the card shows). */
export const barcodeGraphic = (page: Page) => passCard(page).locator('.pass-card__barcode svg');

/** The value shown for a label on the card ("Ticketholder" -> "Ana Lopez"), or null. */
export async function cardDetail(page: Page, label: string): Promise<string | null> {
  const detail = passCard(page)
    .locator('.pass-card__detail')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
  if ((await detail.count()) === 0) return null;
  return (await detail.locator('dd').textContent())?.trim() ?? null;
}

export async function computedColors(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, color: style.color };
  });
}

/** The demo data (README "Demo data"). */
export const demo = {
  passholder: { orderId: '10000001', barcode: '2400000000000011' },
  storedValue: { orderId: '10000002', barcode: '3500000000000028' },
  unregistered: { orderId: '10000003', barcode: '1000000000000035' },
  excluded: { orderId: '10000004', barcode: '1000000000000042' },
  refunded: { orderId: '10000005', barcode: '1000000000000059' },
  nfc: { orderId: '10000006', barcode: '3400000000000017' },
  wristband: { orderId: '10000007', barcode: '1000000000000066' },
  /** A Gold season pass that needs a visit reservation (the demo's entry windows). */
  reservations: { orderId: '10000010', barcode: '2400000000000097' },
  walletException: { orderId: '10000008', barcode: '1000000000000073' },
  redeemed: { orderId: '10000009', barcode: '1000000000000080' },
  testPass: { orderId: '0', barcode: '99000001' },
  /** Direct share links of 3500000000000028: one active (shared with Rosa Diaz), one stopped. */
  shareLinks: {
    active: 'd__6Hzm8fzraBU5wQzPddkB6TF2CbDfKZEyT92j9aL5SdtG7WfNBR7nEY4inwba1JBOvQqkgRP2II7Yw4A-7Hp8i',
    stopped: '5caVpR1TftIfBktL6q3DSuvHgHeKHLGTxMw-EE-fvLOonF1X039KjkB6SqGpt9XtBxrCfCk4TunZTZ8xNZ79tjbQ',
  },
} as const;

/**
 * Answers every lookup of this page as if the ticket had no holder name, so the
 * registration form shows for any order without registering (and changing) a demo order.
 */
export async function answerWithoutHolderName(page: Page) {
  await page.route('**/api/login/', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...json, firstName: null, lastName: null } });
  });
}

/** Answers the next calls to this API path with a status and an error body of the contract's shape. */
export async function answerWithError(
  page: Page,
  path: string,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  reason: ErrorReason = {},
) {
  await page.route(`**${path}`, (route) =>
    route.fulfill({ status, headers, contentType: 'application/json', json: { statusCode: status, error: 'TEST', message, ...reason } }),
  );
}

/** The text of the page's live error region. */
export async function alertText(page: Page): Promise<string> {
  const message = page.getByRole('alert').locator('.alert');
  await message.waitFor();
  return ((await message.textContent()) ?? '').trim();
}

/** Answers lookups of a ticket without a holder name as if the guest had registered this name. */
export async function answerWithHolderName(page: Page, firstName: string, lastName: string) {
  await page.route('**/api/login/', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: json.firstName ? json : { ...json, firstName, lastName, email: 'lee.kim@example.com' } });
  });
}

/**
 * Answers lookups of this page as if the ticket were a passholder's (without a photo), so a
 * void ticket of the demo data (refunded 10000005, redeemed 10000009) shows its barcode.
 */
export async function answerAsPassholder(page: Page) {
  await page.route('**/api/login/', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...json, isPassholder: true } });
  });
}

// Every state of the main pass page, reached the way a guest reaches it, for the states test
// (e2e/guest/states.test.ts: axe and screenshots). Lookups that fail are answered by the
// browser (route mocks) so these files spend none of the server's failed-lookup allowance.
import type { Page } from 'playwright-core';
import {
  answerAsPassholder,
  answerWithError,
  answerWithHolderName,
  answerWithoutHolderName,
  demo,
  type GuestState,
  openPass,
  passCard,
  USER_AGENTS,
} from './browser.ts';
import { photoStates } from './photo-states.ts';

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: text }).waitFor();

async function showPass(page: Page, login: { orderId: string; barcode: string }) {
  await openPass(page, login.orderId, login.barcode);
  await passCard(page).waitFor();
  // The logo and the barcode graphic (a chunk loaded on demand) are part of the card: wait for them.
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  await page.waitForFunction(() => !document.querySelector('.pass-card__barcode') || document.querySelector('.pass-card__barcode svg'));
}

export const guestStates: GuestState[] = [
  {
    name: 'login',
    open: async (page) => {
      await page.goto('/');
      await heading(page, 'Find Your Pass');
    },
  },
  {
    name: 'login-validation',
    open: async (page) => {
      await page.goto('/');
      await page.getByLabel('Order ID').fill('123');
      await page.getByRole('button', { name: 'Find My Pass' }).click();
      await page.locator('#barcode-error').waitFor();
    },
  },
  {
    name: 'login-not-found',
    open: async (page) => {
      await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
      await openPass(page, '10000099', '1000000000000999');
      await page.getByRole('alert').getByText('Unable to locate order').waitFor();
    },
  },
  {
    name: 'loading',
    open: async (page) => {
      await page.route('**/api/login/', () => {
        // Never answered while the screenshot is taken; the page is closed afterwards.
      });
      await page.goto(`/${demo.passholder.orderId}/${demo.passholder.barcode}`);
      await page.getByRole('status').getByText('Finding your pass…').waitFor();
    },
  },
  {
    name: 'registration',
    open: async (page) => {
      await answerWithoutHolderName(page);
      await openPass(page, demo.wristband.orderId, demo.wristband.barcode);
      await heading(page, 'Register Your Pass');
    },
  },
  {
    name: 'registration-validation',
    open: async (page) => {
      await answerWithoutHolderName(page);
      await openPass(page, demo.wristband.orderId, demo.wristband.barcode);
      await heading(page, 'Register Your Pass');
      await page.getByLabel('Email', { exact: true }).fill('hana.sato@example');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.locator('#email-error').waitFor();
    },
  },
  {
    name: 'edit-registration',
    open: async (page) => {
      await showPass(page, demo.passholder);
      await page.getByRole('button', { name: 'Edit Registration' }).click();
      await heading(page, 'Edit Registration');
    },
  },
  {
    name: 'pass-day-ticket',
    open: async (page) => {
      // 10000003 as it looks once registered, whether or not journey.test.ts ran first.
      await answerWithHolderName(page, 'Lee', 'Kim');
      await showPass(page, demo.unregistered);
    },
  },
  { name: 'pass-passholder', open: (page) => showPass(page, demo.passholder) },
  { name: 'pass-stored-value', open: (page) => showPass(page, demo.storedValue) },
  { name: 'pass-refunded', open: (page) => showPass(page, demo.refunded) },
  { name: 'pass-redeemed', open: (page) => showPass(page, demo.redeemed) },
  {
    // No demo passholder is void: the redeemed ticket answered as a passholder's shows a void barcode.
    name: 'pass-void-barcode',
    open: async (page) => {
      await answerAsPassholder(page);
      await showPass(page, demo.redeemed);
    },
  },
  { name: 'pass-wallet-exception', open: (page) => showPass(page, demo.walletException) },
  { name: 'pass-test-pass', open: (page) => showPass(page, demo.testPass) },
  {
    name: 'pass-shared',
    open: async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await passCard(page).waitFor();
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
    },
  },
  // The pass actions (wallet buttons by device); desktop ones show on every pass state above.
  { name: 'wallet-iphone', userAgent: USER_AGENTS.iPhone, open: (page) => showPass(page, demo.wristband) },
  { name: 'wallet-android', userAgent: USER_AGENTS.android, open: (page) => showPass(page, demo.wristband) },
  { name: 'wallet-iphone-test-pass', userAgent: USER_AGENTS.iPhone, open: (page) => showPass(page, demo.testPass) },
  {
    name: 'wallet-busy',
    userAgent: USER_AGENTS.iPhone,
    open: async (page) => {
      await page.route('**/api/apple-wallet/', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      });
      await showPass(page, demo.wristband);
      await page.getByRole('button', { name: 'Add to Apple Wallet' }).click();
      await page.getByRole('status').getByText('Generating Pass Please wait...').waitFor();
    },
  },
  {
    name: 'wallet-google-link',
    userAgent: USER_AGENTS.android,
    open: async (page) => {
      const link = 'https://pay.google.com/gp/v/save/eyJhbGciOiJSUzI1NiJ9.eyJ0eXAiOiJzYXZldG93YWxsZXQifQ.c2lnbmF0dXJl';
      await page.route('**/api/google-wallet/', (route) => route.fulfill({ contentType: 'text/plain', body: link }));
      await page
        .context()
        .route('https://pay.google.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Google Wallet</title>' }));
      await showPass(page, demo.wristband);
      await page.getByRole('button', { name: 'Add to Google Wallet' }).click();
      await page.getByRole('link', { name: 'View Your Pass' }).waitFor();
      await page.bringToFront();
    },
  },
  {
    name: 'wallet-error',
    open: async (page) => {
      await answerWithError(page, '/api/voucher/', 408, 'Request timeout');
      await showPass(page, demo.wristband);
      await page.getByRole('button', { name: 'Print Voucher' }).click();
      await page.getByRole('alert').getByText('Temporary server error, please retry').waitFor();
    },
  },
  {
    name: 'exclusion',
    open: async (page) => {
      await openPass(page, demo.excluded.orderId, demo.excluded.barcode);
      await heading(page, 'Pass Not Available');
    },
  },
  {
    name: 'no-longer-shared',
    open: async (page) => {
      await page.goto(`/${demo.shareLinks.stopped}`);
      await heading(page, 'Pass No Longer Shared');
    },
  },
  {
    name: 'not-found',
    open: async (page) => {
      await page.goto('/no-such-page');
      await heading(page, 'Page not found');
    },
  },
  ...photoStates,
];

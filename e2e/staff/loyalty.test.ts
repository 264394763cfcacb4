// The Loyalty tab against the real server: the email box and the Account / Order Lookup, the
// signup form, the loaded account (season pass, the three add sections in admin mode, the food
// and beverage candidates, the check number scanner, the orders with Remove Order, points and
// the ledger, the pass link, Remove Account), the empty and loading states and every toast; at
// 360 and 1280 px, axe clean, screenshots. Every purchase and member here is made by this file.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerWithError,
  baseUrl,
  expectNoAxeViolations,
  launchBrowser,
  screenshot,
  unexpectedProblems,
  WIDTHS,
  type GuestPage,
  type Width,
} from '../support/browser.ts';
import { launchCameraBrowser } from '../support/fake-camera.ts';
import { anOrderId as anOrderIdFrom, feed } from '../support/feed.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import {
  apiLogin,
  aTeamMember,
  closeToasts,
  createTeamMember,
  goToTab,
  logIn,
  modal,
  openStaffPage,
  signIn,
  staffApi,
  tabNames,
  unique,
} from '../support/staff.ts';

let browser: Browser;
let adminToken: string;
const api = '/api/admin/loyalty/';

let seq = 0;
const anOrderId = () => anOrderIdFrom('6');
const newEmail = () => `staff.loyalty.${unique()}@example.com`;

const recent = () => new Date(Date.now() - 86_400_000).toISOString();

/** A ticket order of one ticket (barcode: the order id twice). */
async function aTicketOrder() {
  const orderId = anOrderId();
  const barcode = `${orderId}${orderId}`;
  await feed(`orders/${orderId}`, {
    orderDate: recent(),
    tickets: [{ barcode, product: 'Day Ticket', price: 64.5, isPassholder: false, credits: 0, cash: 0, refunded: false }],
  });
  return { orderId, barcode };
}

/** Two checks sharing one number (two terminals). */
async function twoChecks() {
  const checkNumber = `S${unique()}`.slice(0, 12);
  await feed(`checks/${checkNumber}-A`, { checkNumber, orderDate: recent(), terminalId: 'FB-07', total: 18.25 });
  await feed(`checks/${checkNumber}-B`, {
    checkNumber,
    orderDate: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    terminalId: 'FB-09',
    total: 9,
  });
  return checkNumber;
}

async function aReservation() {
  const number = `R${unique()}`.slice(0, 16);
  const day = recent().slice(0, 10);
  await feed(`reservations/${number}`, { arrival: day, departure: day, total: 250 });
  return number;
}

/** A staff loyalty call that answers text (create, verify): its status and text. */
async function staffText(path: string, body: object) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A member made through the staff API (and its user id). */
async function aMember(email = newEmail(), firstName = 'Rosa', lastName = `Tester${unique()}`) {
  const { status, text } = await staffText(`${api}create`, { email, firstName, lastName });
  expect(status, text).toBe(200);
  return { email, userID: text, firstName, lastName };
}

/** Clicks an export button and answers the file the browser saved: its name and lines. */
async function downloadCsv(page: Page, button: Locator) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  let text = '';
  for await (const chunk of await download.createReadStream()) text += String(chunk);
  return { name: download.suggestedFilename(), lines: text.trim().split(/\r?\n/) };
}

const toast = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text });
/** A form of the tab by its heading. */
const section = (page: Page, name: string) => page.getByRole('form', { name, exact: true });

async function openLoyalty(staff: GuestPage) {
  await signIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
  await goToTab(staff.page, 'Loyalty');
  await staff.page.getByRole('heading', { level: 2, name: 'Loyalty', exact: true }).waitFor();
}

async function loadByEmail(page: Page, email: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
  await page.getByTestId('loyalty-email').filter({ hasText: email }).waitFor();
  // The account's parts load on their own: the details (tier, contact form) and the season pass
  // lengthen the page above the orders when they arrive, and a click on a row's button aimed
  // before that landed beside it (the Remove Order dialog never opened, under three workers).
  await page.getByTestId('loyalty-tier').waitFor();
  await page.locator('#loyalty-season-pass:not([disabled])').waitFor();
  await expect
    .poll(() =>
      page
        .locator('.staff-loyalty__account')
        .getByText(/^Loading .*\.\.\.$/)
        .count(),
    )
    .toBe(0);
}

/** Nothing makes the page scroll sideways: wide tables scroll in their own region. */
async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Toasts vanish by themselves after 5 s: wait until none shows (the other tests close them by their button). */
const noToasts = (page: Page) => page.locator('.toast').first().waitFor({ state: 'detached', timeout: 10_000 });

/** Runs body in a logged-in staff page on the Loyalty tab; no console problems allowed. */
async function inLoyalty(width: Width, body: (page: Page) => Promise<void>) {
  const staff = await openStaffPage(browser, width);
  try {
    await openLoyalty(staff);
    await body(staff.page);
    expect(unexpectedProblems(staff.problems)).toEqual([]);
  } finally {
    await staff.close();
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
});
afterAll(async () => {
  await browser?.close();
});

describe.each([WIDTHS.mobile, WIDTHS.desktop])('Loyalty tab at %i px', (width) => {
  it('sets the member’s birthday with the contact details: a month and its days, saved and shown again', async () => {
    const member = await aMember();
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      const contact = page.getByRole('form', { name: 'Contact', exact: true });
      await contact.getByLabel('Month').selectOption({ label: 'April' });
      expect(await contact.getByRole('button', { name: 'Save Contact' }).isDisabled()).toBe(true);
      // April has 30 days.
      expect(await contact.getByLabel('Day').locator('option').count()).toBe(31);
      await contact.getByLabel('Day').selectOption('30');
      await contact.getByRole('button', { name: 'Save Contact' }).click();
      await toast(page, 'Contact details saved.').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-birthday');
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Loyalty', exact: true }).waitFor();
      await loadByEmail(page, member.email);
      expect(await page.getByRole('form', { name: 'Contact', exact: true }).getByLabel('Day').inputValue()).toBe('30');
    });
  });

  it('looks up by email (Submit waits for a valid one) and searches (enabled at 3, submitted at 4), then loads an account', async () => {
    const member = await aMember(newEmail(), 'Quilla', `Searchable${unique()}`);
    await staffApi(adminToken, 'POST', `${api}contact/`, { userID: member.userID, phone: '3105550142', zip: '90401' });
    await inLoyalty(width, async (page) => {
      const submit = section(page, 'Find or create an account').getByRole('button', { name: 'Submit' });
      expect(await submit.isDisabled()).toBe(true);
      await page.getByLabel('Email', { exact: true }).fill('rosa@example');
      expect(await submit.isDisabled()).toBe(true);
      const search = page.getByRole('button', { name: 'Search', exact: true });
      expect(await search.isDisabled()).toBe(true);
      await page.getByLabel('Search Term').fill('Qui');
      expect(await search.isDisabled()).toBe(false);
      await search.click();
      await page.getByText('Enter at least 4 characters to search').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-lookup');

      await page.getByLabel('Search Term').fill(member.lastName.toLowerCase());
      await search.click();
      const row = page.locator('.staff-loyalty__results tbody tr').filter({ hasText: member.email });
      await row.waitFor();
      const text = await row.textContent();
      expect(text).toContain('(310) 555-0142');
      expect(text).toContain('90401');
      expect(text).toMatch(/77\d{14}/);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'staff-loyalty-search-results');

      await page.getByLabel('Search Term').fill('zzzz-no-member');
      await search.click();
      await page.getByText('No accounts match this search.').waitFor();
      await page.getByRole('button', { name: 'Clear' }).click();
      expect(await page.getByLabel('Search Term').inputValue()).toBe('');
      await page.getByLabel('Search Term').fill(member.email);
      await search.click();
      await row.getByRole('button', { name: 'Load Account' }).click();
      await page.getByTestId('loyalty-email').filter({ hasText: member.email }).waitFor();
      await page.getByText('No Orders').waitFor();
      await page.getByRole('button', { name: 'Change User' }).click();
      await page.getByLabel('Search Term').waitFor();
    });
  });

  it('offers the signup form for an unknown email (Start Over goes back), creates the account and loads it', async () => {
    await inLoyalty(width, async (page) => {
      const email = newEmail();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('heading', { name: 'New Account' }).waitFor();
      const submit = section(page, 'New Account').getByRole('button', { name: 'Submit' });
      expect(await submit.isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Start Over' }).click();
      await page.getByLabel('Search Term').waitFor();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
      await page.getByLabel('First Name').fill('Nadia');
      await page.getByLabel('Last Name').fill('Okoro');
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-signup');
      await submit.click();
      await page.getByTestId('loyalty-email').filter({ hasText: email }).waitFor();
      await page.getByText('Nadia Okoro · Member').waitFor();
      await page.getByText('No Orders').waitFor();
      await page.getByText('No points yet.').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-account-empty');
    });
  });

  it('adds a season pass (Add needs 18 characters starting with 24), locks it, and removes it', async () => {
    const member = await aMember();
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      const add = page.getByRole('button', { name: 'Add Season Pass' });
      await add.waitFor();
      const field = page.getByLabel('Season Pass ID');
      await field.fill('25' + '1'.repeat(16));
      expect(await add.isDisabled()).toBe(true);
      await field.fill('24' + '1'.repeat(15));
      expect(await add.isDisabled()).toBe(true);
      const id = `24${Date.now()}${String(++seq).padStart(3, '0')}`.slice(0, 18);
      await field.fill(id);
      await add.click();
      await page.getByRole('button', { name: 'Remove Season Pass' }).waitFor();
      expect(await field.inputValue()).toBe(id);
      expect(await field.getAttribute('readonly')).not.toBeNull();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-season-pass');
      await page.getByRole('button', { name: 'Remove Season Pass' }).click();
      await add.waitFor();
      expect(await field.inputValue()).toBe('');
    });
  });

  it('adds tickets, food and beverage (candidates; Add disabled once in the account) and a hotel stay; removes an order after the confirmation', async () => {
    const member = await aMember();
    const ticket = await aTicketOrder();
    const checkNumber = await twoChecks();
    const reservation = await aReservation();
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      await page.getByText('No Orders').waitFor();

      const tickets = section(page, 'Tickets');
      expect(await tickets.getByRole('button', { name: 'Add' }).isDisabled()).toBe(true);
      await tickets.getByLabel('Order ID or Invoice Number').fill(ticket.orderId);
      await tickets.getByRole('button', { name: 'Add' }).click();
      await toast(page, 'Tickets: added, +64 points.').waitFor();
      const orders = page.locator('.staff-loyalty__orders tbody tr');
      await orders.filter({ hasText: ticket.barcode }).waitFor();
      // Order Date as M/D/YY.
      expect(await orders.filter({ hasText: ticket.barcode }).textContent()).toMatch(/\d{1,2}\/\d{1,2}\/\d{2}Ticket/);

      // The same order again: the server's reason in red.
      await tickets.getByLabel('Order ID or Invoice Number').fill(ticket.orderId);
      await tickets.getByRole('button', { name: 'Add' }).click();
      await tickets.getByText('This purchase has already been claimed.').waitFor();

      const fnb = section(page, 'Food & Beverage');
      await fnb.getByLabel('Check Number').fill(checkNumber);
      await fnb.getByRole('button', { name: 'Add', exact: true }).click();
      await fnb.getByText('Several checks have this number:').waitFor();
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'staff-loyalty-candidates');
      await fnb.locator('tbody tr').filter({ hasText: 'FB-07' }).getByRole('button', { name: 'Add' }).click();
      await toast(page, 'Food & Beverage: added, +18 points.').waitFor();
      await orders.filter({ hasText: `${checkNumber}-A` }).waitFor();
      await fnb.getByLabel('Check Number').fill(checkNumber);
      await fnb.getByRole('button', { name: 'Add', exact: true }).click();
      const added = fnb.locator('tbody tr').filter({ hasText: 'FB-07' }).getByRole('button', { name: 'Added' });
      await added.waitFor();
      expect(await added.isDisabled()).toBe(true);

      const hotel = section(page, 'Hotel Reservations');
      await hotel.getByLabel('Reservation Number').fill(reservation);
      await hotel.getByRole('button', { name: 'Add' }).click();
      await toast(page, 'Hotel Reservations: added, +500 points.').waitFor();
      await orders.filter({ hasText: reservation }).waitFor();
      await page.getByTestId('loyalty-balance').filter({ hasText: '582' }).waitFor();
      await noToasts(page);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'staff-loyalty-account-orders');

      await orders.filter({ hasText: ticket.barcode }).getByRole('button', { name: 'Remove Order' }).click();
      await modal(page).getByText('This will remove the order from this account. Are you sure you wish to proceed?').waitFor();
      await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-remove-order');
      await modal(page).getByRole('button', { name: 'Remove Order' }).click();
      await toast(page, 'Order removed.').waitFor();
      await orders.filter({ hasText: ticket.barcode }).waitFor({ state: 'detached' });
      await page.getByTestId('loyalty-balance').filter({ hasText: '518' }).waitFor();
      await page.locator('.staff-loyalty__ledger tbody tr').filter({ hasText: 'removed by staff' }).waitFor();
    });
  });

  it('shows a balance a removed order took below zero as such, and accepts a raise on it', async () => {
    const member = await aMember();
    const ticket = await aTicketOrder();
    const staffPost = (path: string, body: object) =>
      fetch(`${baseUrl()}${api}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await staffPost('tickets/', { orderId: ticket.orderId, email: member.email, userID: member.userID })).status).toBe(200);
    expect((await staffPost('adjust/', { userID: member.userID, points: -60, reason: 'Redeemed by hand' })).status).toBe(200);
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      await page.locator('tr').filter({ hasText: ticket.barcode }).getByRole('button', { name: 'Remove Order' }).click();
      await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
      await modal(page).getByRole('button', { name: 'Remove Order' }).click();
      await toast(page, 'Order removed.').waitFor();
      await page.getByTestId('loyalty-balance').filter({ hasText: '-60 (below zero)' }).waitFor();
      await closeToasts(page);
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-negative-balance');
      await page.getByRole('textbox', { name: 'Points', exact: true }).fill('25');
      await page.getByLabel('Reason').fill('Partial correction');
      await page.getByRole('button', { name: 'Adjust Points' }).click();
      await toast(page, 'Points adjusted. The balance is now -35.').waitFor();
      await page.getByTestId('loyalty-balance').filter({ hasText: '-35 (below zero)' }).waitFor();
    });
  });

  it('adjusts points with a required reason and shows the ledger; mails the pass link', async () => {
    const member = await aMember();
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      const adjust = page.getByRole('button', { name: 'Adjust Points' });
      await page.getByRole('textbox', { name: 'Points', exact: true }).fill('40');
      expect(await adjust.isDisabled()).toBe(true);
      await page.getByLabel('Reason').fill('Ride closure goodwill');
      await adjust.click();
      await toast(page, 'Points adjusted. The balance is now 40.').waitFor();
      await page
        .locator('.staff-loyalty__ledger tbody tr')
        .filter({ hasText: 'Ride closure goodwill' })
        .filter({ hasText: '+40' })
        .waitFor();
      await page.getByRole('textbox', { name: 'Points', exact: true }).fill('-100');
      await page.getByLabel('Reason').fill('Too much');
      await adjust.click();
      await toast(page, 'The balance is 40 points: a deduction cannot take it below zero.').waitFor();
      await page.getByRole('button', { name: 'Email Pass Link' }).click();
      await toast(page, `Pass link sent to ${member.email}.`).waitFor();
      await closeToasts(page);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'staff-loyalty-points');
    });
  });

  it('exports the members with balance and tier, and the ledger between two days, as CSV files', async () => {
    const member = await aMember();
    const reason = `Export check ${unique()}`;
    expect((await staffText(`${api}adjust/`, { userID: member.userID, points: 40, reason })).status).toBe(200);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await inLoyalty(width, async (page) => {
      const exports = page.getByRole('region', { name: 'Exports', exact: true });
      const members = await downloadCsv(page, exports.getByRole('button', { name: 'Export members' }));
      expect(members.name).toMatch(/^loyalty-members-\d{4}-\d\d-\d\d\.csv$/);
      expect(members.lines[0]).toBe('Member Number,Email,First Name,Last Name,Phone,ZIP,Joined,Balance,Tier');
      const row = members.lines.find((line) => line.includes(member.email));
      expect(row?.split(',').slice(-2, -1)).toEqual(['40']);

      // The ledger of the days around today (the server reads them as the park's operating days).
      await exports.getByLabel('Ledger from').fill(day(-2));
      await exports.getByLabel('to', { exact: true }).fill(day(1));
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-exports');
      const ledger = await downloadCsv(page, exports.getByRole('button', { name: 'Export ledger' }));
      // A range past today ends today, in the park (the UTC date or the day before it).
      expect([`loyalty-ledger-${day(-2)}-to-${day(0)}.csv`, `loyalty-ledger-${day(-2)}-to-${day(-1)}.csv`]).toContain(ledger.name);
      expect(ledger.lines[0]).toBe('Entry,Written,Member Number,Kind,Points,Reason,Source Type,Source ID,Caused By,Staff Member');
      expect(ledger.lines.filter((line) => line.includes(reason))).toHaveLength(1);
    });
  });

  it('removes the account after a confirmation naming it and its loyalty orders', async () => {
    const member = await aMember();
    await inLoyalty(width, async (page) => {
      await loadByEmail(page, member.email);
      await page.getByRole('button', { name: 'Remove Account' }).click();
      await modal(page).getByText(`This will remove the account ${member.email} and all associated loyalty orders.`).waitFor();
      await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-remove-account');
      await modal(page).getByRole('button', { name: 'Remove Account' }).click();
      await toast(page, `Account ${member.email} removed.`).waitFor();
      await page.getByLabel('Search Term').waitFor();
      expect((await staffText(`${api}verify`, { email: member.email })).status).toBe(404);
    });
  });

  it('shows Loading Orders... while the orders load', async () => {
    const member = await aMember();
    await inLoyalty(width, async (page) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**${api}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel('Email', { exact: true }).fill(member.email);
      await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Loading Orders...').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-loading-orders');
      release();
      await page.getByText('No Orders').waitFor();
    });
  });
});

describe('Loyalty tab failures (toasts)', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`toasts each failure in the spec's words (${width} px)`, async () => {
      const member = await aMember();
      const ticket = await aTicketOrder();
      await inLoyalty(width, async (page) => {
        await answerWithError(page, `${api}verify`, 500, 'boom');
        await page.getByLabel('Email', { exact: true }).fill(member.email);
        await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
        await toast(page, 'Unable to submit, please try again later.').waitFor();
        await page.unroute(`**${api}verify`);

        await answerWithError(page, `${api}search/`, 500, 'boom');
        await page.getByLabel('Search Term').fill('anything');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await toast(page, 'Unable to search, please try again later.').waitFor();

        // A 409 on create: the account was made meanwhile.
        const email = newEmail();
        await page.getByLabel('Email', { exact: true }).fill(email);
        await section(page, 'Find or create an account').getByRole('button', { name: 'Submit' }).click();
        await page.getByLabel('First Name').fill('Late');
        await page.getByLabel('Last Name').fill('Comer');
        await aMember(email);
        await section(page, 'New Account').getByRole('button', { name: 'Submit' }).click();
        await toast(page, 'Unable to create profile, please try again later.').waitFor();
        await page.getByRole('button', { name: 'Start Over' }).click();

        await answerWithError(page, `${api}pass/${member.userID}/`, 500, 'boom');
        await answerWithError(page, api, 500, 'boom');
        await loadByEmail(page, member.email);
        await toast(page, 'Unable to get season pass details, please try again later.').waitFor();
        await toast(page, 'Unable to load orders.').waitFor();
        await page.unroute(`**${api}pass/${member.userID}/`);
        await page.unroute(`**${api}`);
        await page.getByRole('button', { name: 'Change User' }).click();
        await loadByEmail(page, member.email);

        await answerWithError(page, `${api}pass/`, 500, 'boom');
        await page.getByLabel('Season Pass ID').fill(`24${Date.now()}${String(++seq).padStart(3, '0')}`.slice(0, 18));
        await page.getByRole('button', { name: 'Add Season Pass' }).click();
        await toast(page, 'Unable to add season pass, please try again later.').waitFor();
        await page.unroute(`**${api}pass/`);
        await page.getByRole('button', { name: 'Add Season Pass' }).click();
        await page.getByRole('button', { name: 'Remove Season Pass' }).waitFor();
        await answerWithError(page, `${api}pass/${member.userID}`, 500, 'boom');
        await page.getByRole('button', { name: 'Remove Season Pass' }).click();
        await toast(page, 'Unable to remove season pass, please try again later.').waitFor();

        // A claim that fails other than with a reason: the support text in red.
        await answerWithError(page, `${api}tickets/`, 500, 'boom');
        const tickets = section(page, 'Tickets');
        await tickets.getByLabel('Order ID or Invoice Number').fill(ticket.orderId);
        await tickets.getByRole('button', { name: 'Add' }).click();
        await tickets
          .getByText(/^Unable to submit, please try again later\. If this issue persists, please email us at \S+@\S+ for assistance\.$/)
          .waitFor();
        await page.unroute(`**${api}tickets/`);
        await tickets.getByRole('button', { name: 'Add' }).click();
        const row = page.locator('.staff-loyalty__orders tbody tr').filter({ hasText: ticket.barcode });
        await row.waitFor();

        await answerWithError(page, `${api}order/**`, 500, 'boom');
        await row.getByRole('button', { name: 'Remove Order' }).click();
        await modal(page).getByRole('button', { name: 'Remove Order' }).click();
        await toast(page, 'Unable to remove, please try again later.').waitFor();
        await answerWithError(page, `${api}${member.userID}`, 500, 'boom');
        await page.getByRole('button', { name: 'Remove Account' }).click();
        await modal(page).getByRole('button', { name: 'Remove Account' }).click();
        await toast(page, 'Unable to remove, please try again later.').nth(1).waitFor();
        await expectNoAxeViolations(page);
        await expectNoSidewaysScroll(page);
        await screenshot(page, 'staff-loyalty-toasts');
      });
    });
  }
});

describe('Loyalty permissions in the page', () => {
  it('shows the tab only with Loyalty Manage, and Remove Account and Remove Order only with their own permissions', async () => {
    // Level 50: below the loyalty permissions (100) and above the configuration tabs' list (1).
    const clerk = aTeamMember(50, 'Clerk');
    await createTeamMember(adminToken, clerk);
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await logIn(staff.page, clerk.email, clerk.password);
      expect(await tabNames(staff.page)).not.toContain('Loyalty');
    } finally {
      await staff.close();
    }
    // The administrator's navigation lists Loyalty first in its group, then the campaigns, the rewards and the tiers.
    const admin = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await signIn(admin.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      const names = await tabNames(admin.page);
      const at = names.indexOf('Loyalty');
      expect(names.slice(at, at + 4)).toEqual(['Loyalty', 'Loyalty Campaigns', 'Loyalty Rewards', 'Loyalty Tiers']);
    } finally {
      await admin.close();
    }
  });
});

describe('check number scanner', () => {
  let cameraBrowser: Browser;
  const code = '6000123456789012';
  beforeAll(async () => {
    cameraBrowser = await launchCameraBrowser(code);
  });
  afterAll(async () => {
    await cameraBrowser?.close();
  });

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`scans the check number with the camera overlay, which Close also closes (${width} px)`, async () => {
      const member = await aMember();
      const staff = await openStaffPage(cameraBrowser, width);
      try {
        const { page } = staff;
        await openLoyalty(staff);
        await loadByEmail(page, member.email);
        const fnb = section(page, 'Food & Beverage');
        await fnb.getByRole('button', { name: 'Scan Barcode' }).click();
        const dialog = page.getByRole('dialog', { name: 'Scan your check number' });
        await dialog.waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-loyalty-scanner');
        await dialog.waitFor({ state: 'detached', timeout: 30_000 });
        expect(await fnb.getByLabel('Check Number').inputValue()).toBe(code);
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });

    it(`closes the overlay with Close, the check number still typed by hand (${width} px)`, async () => {
      const member = await aMember();
      await inLoyalty(width, async (page) => {
        await loadByEmail(page, member.email);
        const fnb = section(page, 'Food & Beverage');
        await fnb.getByRole('button', { name: 'Scan Barcode' }).click();
        const dialog = page.getByRole('dialog', { name: 'Scan your check number' });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'detached' });
        await fnb.getByLabel('Check Number').fill('4012');
        expect(await fnb.getByRole('button', { name: 'Add', exact: true }).isDisabled()).toBe(false);
      });
    });
  }
});

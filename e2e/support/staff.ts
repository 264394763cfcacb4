// The staff back office in browser tests: the administrator global-setup.ts seeds, API
// helpers to prepare data, and page helpers for the login form and the tabs.
import type { Browser, Page } from 'playwright-core';
import { baseUrl, openGuestPage, WIDTHS, type GuestPage, type Width } from './browser.ts';

export interface StaffLogin {
  sessionGUID: string;
  accessToken: string;
  teamMemberGUID: string;
  teamMemberUsername: string;
  sessionEndTimestamp: string;
  permissions: { permissionGUID: string; permissionName: string }[];
}

export async function apiLogin(email: string, password: string, server = baseUrl()): Promise<StaffLogin> {
  const response = await fetch(`${server}/app/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ teamMemberUsername: email, teamMemberPassword: password }),
  });
  if (response.status !== 201) throw new Error(`login of ${email} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as StaffLogin;
}

export async function staffApi(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, server = baseUrl()) {
  const response = await fetch(`${server}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined, headers: response.headers };
}

let counter = 0;
/** A unique suffix so tests never collide with each other or with a rerun on the same server. */
export const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface TeamMemberSpec {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  accessLevel: number;
}

export function aTeamMember(accessLevel: number, name = 'Member'): TeamMemberSpec {
  const id = unique();
  return { firstName: name, lastName: `Tester ${id}`, email: `member.${id}@boardwalk.test`, password: `pw-${id}-long-enough`, accessLevel };
}

/** Creates a team member through the API as the administrator. */
export async function createTeamMember(adminToken: string, member: TeamMemberSpec, server = baseUrl()): Promise<string> {
  const { status, json } = await staffApi(
    adminToken,
    'POST',
    '/api/admin/team-member/',
    {
      teamMemberFirstName: member.firstName,
      teamMemberLastName: member.lastName,
      teamMemberInternalID: `E2E-${member.lastName}`,
      teamMemberUsername: member.email,
      teamMemberPassword: member.password,
      teamMemberAccessLevel: member.accessLevel,
    },
    server,
  );
  if (status !== 200 && status !== 201) throw new Error(`creating ${member.email} answered ${status}: ${JSON.stringify(json)}`);
  return (json as { teamMemberGUID: string }).teamMemberGUID;
}

export async function openStaffPage(browser: Browser, width: Width = WIDTHS.desktop): Promise<GuestPage> {
  return openGuestPage(browser, width);
}

/** Fills and submits the login form on /login; waits for the admin area. */
export async function logIn(page: Page, email: string, password: string, { remember }: { remember?: boolean } = {}) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  if (remember !== undefined) await page.getByLabel('Remember my username on this device').setChecked(remember);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL('**/admin**');
  await backOfficeNav(page).waitFor({ state: 'attached' });
}

/**
 * Logged in without the form (login.test.ts covers the form): the login answer stored in the
 * browser under the keys the form stores it under (apps/web/src/staff/auth/staff-session.ts),
 * once per tab, then /admin. Spares each test a page load of /login.
 */
export async function signIn(page: Page, email: string, password: string, server = baseUrl()) {
  const user = await apiLogin(email, password, server);
  const stored: [string, string][] = [
    ['user', JSON.stringify(user)],
    ['token', user.accessToken],
    ['sessionGUID', user.sessionGUID],
    ['sessionEndTimestamp', user.sessionEndTimestamp],
    ['teamMemberUsername', user.teamMemberUsername],
    ['permissions', JSON.stringify(user.permissions)],
  ];
  await page.context().addInitScript((entries) => {
    // Once per tab: a logout later in the test stays a logout.
    if (sessionStorage.getItem('e2e-signed-in')) return;
    sessionStorage.setItem('e2e-signed-in', '1');
    for (const [key, value] of entries) localStorage.setItem(key, value);
  }, stored);
  await page.goto('/admin');
  await backOfficeNav(page).waitFor({ state: 'attached' });
}

/** The back office's navigation: a side navigation on wide screens, in the Menu on phones. */
export const backOfficeNav = (page: Page) => page.locator('nav[aria-label="Back office"]');

/** The tabs the member sees, in the navigation's order (whether or not the phone menu is open). */
export const tabNames = (page: Page) => backOfficeNav(page).locator('a').allTextContents();

/** Chooses a tab in the navigation as a member would: on a phone through the Menu button. */
export async function goToTab(page: Page, title: string) {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) {
    await menu.click();
    // Slid in before a link is chosen.
    await page.waitForFunction(() => document.querySelector('#staff-menu.show:not(.offcanvas-toggling)'));
  }
  const link = backOfficeNav(page).getByRole('link', { name: title, exact: true });
  const href = await link.getAttribute('href');
  await link.click();
  await page.waitForURL(`**${href}`);
  // The phone menu closes (sliding out) before the page is looked at.
  await page.waitForFunction(() => !document.querySelector('#staff-menu.show, #staff-menu.offcanvas-toggling'));
}

export async function openTab(page: Page, title: string) {
  await goToTab(page, title);
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
  await page.locator('.staff-table tbody tr').first().waitFor();
}

export const modal = (page: Page) => page.getByRole('dialog');

/**
 * Closes every toast by its Close button, as a staff member would (so a toast must be on the
 * screen), so the next screenshot and axe see the page itself.
 */
export async function closeToasts(page: Page) {
  const toasts = page.locator('.toast');
  while ((await toasts.count()) > 0) {
    // A toast may close by itself meanwhile (after 5 s): then look again.
    await toasts
      .first()
      .getByRole('button', { name: 'Close' })
      .click({ timeout: 2_000 })
      .catch(async (error: unknown) => {
        if ((await toasts.count()) > 0) throw error;
      });
  }
}

/** The table row holding this text. */
export const rowWith = (page: Page, text: string) => page.locator('.staff-table tbody tr').filter({ hasText: text });

/** Searches the current tab (a cached answer may show without a request) and waits until it shows. */
export async function searchTab(page: Page, text: string) {
  await page.getByRole('searchbox').fill(text);
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));
}

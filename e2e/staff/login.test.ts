// The staff login: the form, remembering the username, "Unable to Login", the spinner, browser
// storage, the expiry timer, logout and the routes.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { backOfficeNav, logIn, openStaffPage, staffApi } from '../support/staff.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const storage = (page: import('playwright-core').Page) => page.evaluate(() => ({ ...localStorage }));

describe('staff login', () => {
  it('shows the form, refuses a wrong password with "Unable to Login", logs in with Enter and remembers the username', async () => {
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    const { page } = staff;
    try {
      await page.goto('/login');
      await page.getByRole('heading', { level: 1, name: 'Team Member Login' }).waitFor();
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password');
      const remember = page.getByLabel('Remember my username on this device');
      const login = page.getByRole('button', { name: 'Login' });
      await expect(password.getAttribute('type')).resolves.toBe('password');
      // No saved username yet: the box starts unchecked; Login waits for both fields.
      await expect(remember.isChecked()).resolves.toBe(false);
      await expect(login.isDisabled()).resolves.toBe(true);
      await email.fill(STAFF_ADMIN.email);
      await expect(login.isDisabled()).resolves.toBe(true);
      await expect(login.evaluate((el) => el.classList.contains('btn-lg') && el.classList.contains('btn-primary'))).resolves.toBe(true);
      // Column size 4, offset 4 on a wide screen.
      const column = await page.locator('.col-md-4.offset-md-4').boundingBox();
      expect(column?.width).toBeGreaterThan(300);
      expect(column?.x).toBeGreaterThan(350);

      // A wrong password: the spinner while the answer is on its way, then bold red "Unable to Login".
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/app/login/', async (route) => {
        await held;
        await route.continue();
      });
      await password.fill('not the password');
      await login.click();
      const spinner = login.locator('img');
      await spinner.waitFor();
      await expect(spinner.evaluate((img) => img.getBoundingClientRect().height)).resolves.toBe(20);
      await expect(login.isDisabled()).resolves.toBe(true);
      release();
      const error = page.getByText('Unable to Login', { exact: true });
      await error.waitFor();
      await expect(error.evaluate((el) => [getComputedStyle(el).fontWeight, getComputedStyle(el).color])).resolves.toEqual([
        '700',
        'rgb(180, 35, 24)',
      ]);
      await page.unroute('**/app/login/');
      await expect(login.isEnabled()).resolves.toBe(true);

      // Enter in the password field submits; the box checked saves the username.
      await remember.check();
      await password.fill(STAFF_ADMIN.password);
      await password.press('Enter');
      await page.waitForURL('**/admin/**');
      await backOfficeNav(page).waitFor({ state: 'attached' });
      const stored = await storage(page);
      expect(stored.rememberTeamMemberUsername).toBe(STAFF_ADMIN.email);
      const user = JSON.parse(stored.user ?? 'null') as {
        accessToken: string;
        sessionGUID: string;
        permissions: { permissionName: string }[];
      };
      expect(user.permissions.map((p) => p.permissionName)).toContain('_Admin');
      expect(stored.token).toBe(user.accessToken);
      expect(stored.sessionGUID).toBe(user.sessionGUID);
      expect(stored.teamMemberUsername).toBe(STAFF_ADMIN.email);
      expect(stored.sessionEndTimestamp).toMatch(/Z$/);
      expect(JSON.parse(stored.permissions ?? '[]')).toEqual(user.permissions);
      // The username on a wide screen.
      await expect(page.locator('.staff-navbar__user').textContent()).resolves.toBe(STAFF_ADMIN.email);

      // Logout: the session ends on the server, storage keeps only the remembered username.
      const loggedOut = page.waitForResponse(
        (r) => r.url().includes(`/app/logout/${user.sessionGUID}`) && r.request().method() === 'DELETE',
      );
      await page.getByRole('button', { name: 'Logout' }).click();
      expect((await loggedOut).status()).toBe(204);
      await page.waitForURL('**/login');
      await expect(storage(page)).resolves.toEqual({ rememberTeamMemberUsername: STAFF_ADMIN.email });
      const after = await staffApi(user.accessToken, 'GET', '/api/admin/pass-customization/');
      expect(after.status).toBe(401);

      // Back on the form: the username remembered and the box checked.
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe(STAFF_ADMIN.email);
      await expect(page.getByLabel('Remember my username on this device').isChecked()).resolves.toBe(true);

      // Unchecked, the saved username is removed at the next login.
      await logIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password, { remember: false });
      await expect(storage(page).then((s) => s.rememberTeamMemberUsername)).resolves.toBeUndefined();
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
    }
  });

  it('logs out when the stored end time passes (the expiry timer)', async () => {
    const staff = await openStaffPage(browser, WIDTHS.mobile);
    const { page } = staff;
    try {
      await logIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      // The session ends 5 seconds from now as far as this browser knows (time for the reload to
      // show the back office first, on a busy machine too).
      await page.evaluate(() => {
        const user = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, unknown>;
        const end = new Date(Date.now() + 5_000).toISOString();
        localStorage.setItem('user', JSON.stringify({ ...user, sessionEndTimestamp: end }));
        localStorage.setItem('sessionEndTimestamp', end);
      });
      await page.reload();
      await backOfficeNav(page).waitFor({ state: 'attached' });
      await page.waitForURL('**/login', { timeout: 15_000 });
      await expect(page.evaluate(() => localStorage.getItem('user'))).resolves.toBeNull();
    } finally {
      await staff.close();
    }
  });

  it('sends /admin without a session, and any other staff path, to /login; guest pages stay', async () => {
    const staff = await openStaffPage(browser, WIDTHS.mobile);
    const { page } = staff;
    try {
      for (const path of ['/admin', '/admin/unknown', '/login/x', '/admin/a/b/c']) {
        await page.goto(path);
        await page.waitForURL('**/login');
        await page.getByRole('heading', { level: 1, name: 'Team Member Login' }).waitFor();
      }
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      await page.goto('/no/such/page/here');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      // Logged in: /login goes to /admin and its first tab, an unknown tab to the first tab, and
      // any other staff path to /login and on to /admin.
      await logIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await page.goto('/login');
      await page.waitForURL('**/admin/dashboard');
      await page.goto('/admin/unknown');
      await page.waitForURL('**/admin/dashboard');
      await page.goto('/admin/a/b/c');
      await page.waitForURL('**/admin/dashboard');
    } finally {
      await staff.close();
    }
  });
});

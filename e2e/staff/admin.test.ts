// The admin area against the real server: permitted tabs only, a pass customization that
// reaches a guest's card, a session ended from the Session tab, a 400 kept in the modal,
// the static backdrop's bounce and a level above one's own refused.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computedColors, demo, launchBrowser, openGuestPage, openPass, passCard, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import {
  apiLogin,
  aTeamMember,
  createTeamMember,
  goToTab,
  logIn,
  modal,
  openStaffPage,
  openTab,
  rowWith,
  searchTab,
  signIn,
  staffApi,
  tabNames,
  unique,
} from '../support/staff.ts';

let browser: Browser;
let adminToken: string;
beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
});
afterAll(async () => {
  await browser?.close();
});

// The navigation's order: its groups (Overview, Passes, Wristbands, Reservations, Loyalty, Team, Operations), each tab in its group.
const CONFIGURATION_TABS = [
  'Dashboard',
  'Pass Customizations',
  'Pass Customization Categories',
  'Test Passes',
  'Wallet Exceptions',
  'Wallet Item Exclusions',
  'Park Hours',
  'Park Locations',
  'Park Notices',
  'Wristband Merch Pack IDs',
  'Wristbands',
  'Entry Windows',
  'Reservation Products',
  'Blockout Days',
];
const ALL_TABS = [
  ...CONFIGURATION_TABS,
  'Loyalty',
  'Loyalty Campaigns',
  'Loyalty Rewards',
  'Loyalty Tiers',
  'Team',
  'Permissions',
  'Session',
  'Audit Log',
  'Deliveries',
  'Privacy',
  'Webhooks',
];

/** A field of the open modal by its label. */
const field = (page: Page, label: string) => modal(page).getByLabel(label, { exact: true });

async function save(page: Page) {
  await modal(page).getByRole('button', { name: 'Save' }).click();
  await modal(page).waitFor({ state: 'detached' });
}

async function fillTeamMember(page: Page, member: ReturnType<typeof aTeamMember>) {
  await field(page, 'First Name').fill(member.firstName);
  await field(page, 'Last Name').fill(member.lastName);
  await field(page, 'Internal ID').fill(`E2E-${member.lastName}`);
  await field(page, 'Email').fill(member.email);
  await field(page, 'Change Password').fill(member.password);
  await field(page, 'Access Level').fill(String(member.accessLevel));
}

describe('admin area', () => {
  it('shows every tab to the administrator and only the permitted tabs and controls to lower levels', async () => {
    const editorMember = aTeamMember(10, 'Editor');
    const admin = await openStaffPage(browser);
    try {
      await signIn(admin.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await expect(tabNames(admin.page)).resolves.toEqual(ALL_TABS);

      // A configuration editor (level 10) made through the Team tab.
      await openTab(admin.page, 'Team');
      await admin.page.getByRole('button', { name: 'Add New' }).click();
      await modal(admin.page).getByRole('heading', { name: 'New Team' }).waitFor();
      // A new member starts active: the box is not in the New modal.
      await expect(field(admin.page, 'Active').count()).resolves.toBe(0);
      await fillTeamMember(admin.page, editorMember);
      await save(admin.page);
      await searchTab(admin.page, editorMember.lastName);
      await rowWith(admin.page, editorMember.email).waitFor();
      expect(unexpectedProblems(admin.problems)).toEqual([]);
    } finally {
      await admin.close();
    }

    const editor = await openStaffPage(browser);
    try {
      await logIn(editor.page, editorMember.email, editorMember.password);
      await expect(tabNames(editor.page)).resolves.toEqual(CONFIGURATION_TABS);
      await openTab(editor.page, 'Pass Customizations');
      await expect(editor.page.getByRole('button', { name: 'Add New' }).isVisible()).resolves.toBe(true);
      // The rows load after the tab's controls: wait for the first row's Edit.
      await editor.page.getByRole('button', { name: 'Edit' }).first().waitFor();
    } finally {
      await editor.close();
    }

    const viewer = await openStaffPage(browser);
    try {
      const member = aTeamMember(1, 'Viewer');
      await createTeamMember(adminToken, member);
      await logIn(viewer.page, member.email, member.password);
      await expect(tabNames(viewer.page)).resolves.toEqual(CONFIGURATION_TABS);
      await openTab(viewer.page, 'Test Passes');
      // Once the rows are in, none of them has an Edit.
      await viewer.page.locator('.staff-table[aria-busy="false"] tbody tr').first().waitFor();
      await expect(viewer.page.locator('.staff-table tbody').getByText('Loading...').count()).resolves.toBe(0);
      await expect(viewer.page.getByRole('button', { name: 'Add New' }).count()).resolves.toBe(0);
      await expect(viewer.page.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
      // Each tab has its address: a reload opens the same tab.
      await viewer.page.reload();
      await viewer.page.getByRole('heading', { level: 2, name: 'Test Passes' }).waitFor();
      expect(new URL(viewer.page.url()).pathname).toBe('/admin/test-passes');
      // An old link (?tab=<key>) opens its tab at its address.
      await viewer.page.goto('/admin?tab=park-hours');
      await viewer.page.waitForURL('**/admin/park-hours');
      await viewer.page.getByRole('heading', { level: 2, name: 'Park Hours' }).waitFor();
      // A tab the member may not list is not there, even asked for by address: the first tab opens.
      await viewer.page.goto('/admin/team');
      await viewer.page.waitForURL('**/admin/dashboard');
      await viewer.page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    } finally {
      await viewer.close();
    }
  });

  it("creates a pass customization, maps it to a ticket's barcode and the guest's card takes its colours", async () => {
    const name = `E2E Sunset ${unique()}`;
    const staff = await openStaffPage(browser);
    const { page } = staff;
    try {
      await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await openTab(page, 'Pass Customizations');
      // Sorting is the server's: a header click asks for the other direction.
      const sorted = page.waitForRequest((r) => r.url().includes('sort=passCustomizationName&direction=desc'));
      await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
      await sorted;
      await expect(page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).resolves.toBe('descending');
      await page.getByRole('button', { name: 'Add New' }).click();
      const saveButton = modal(page).getByRole('button', { name: 'Save' });
      // Save waits for every required field.
      await expect(saveButton.isDisabled()).resolves.toBe(true);
      await field(page, 'Name').fill(name);
      await field(page, 'Background Color').fill('#5a189a');
      await field(page, 'Color').fill('#ffffff');
      await expect(saveButton.isDisabled()).resolves.toBe(true);
      await field(page, 'Instructions').fill('Enjoy the sunset at the pier.');
      await expect(field(page, 'Instructions').getAttribute('rows')).resolves.toBe('5');
      await expect(modal(page).getByText('5A189A', { exact: true }).count()).resolves.toBe(1);
      const created = page.waitForRequest((r) => r.url().endsWith('/api/admin/pass-customization/') && r.method() === 'POST');
      await save(page);
      // Colours are sent without '#'.
      const body = (await created).postDataJSON() as Record<string, unknown>;
      expect(body.passCustomizationBackgroundColor).toBe('5a189a');
      await searchTab(page, name);
      const row = rowWith(page, name);
      await row.waitFor();
      await expect(
        row
          .locator('.staff-swatch')
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor),
      ).resolves.toBe('rgb(90, 24, 154)');
      await expect(row.textContent()).resolves.toContain('5A189A');

      // Edit: the create-only name is locked and nothing changed means no save.
      await row.click();
      await expect(field(page, 'Name').isDisabled()).resolves.toBe(true);
      await expect(modal(page).getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
      await modal(page).getByRole('button', { name: 'Cancel' }).click();
      await modal(page).waitFor({ state: 'detached' });

      // Map it to the NFC ticket's barcode (no other test looks at this card's colours).
      await openTab(page, 'Pass Customization Categories');
      await page.getByRole('button', { name: 'Add New' }).click();
      await field(page, 'Barcode').fill(demo.nfc.barcode);
      const select = field(page, 'Customization');
      await expect(select.locator('option').first().textContent()).resolves.toBe('SELECT');
      await select.selectOption({ label: name });
      await field(page, 'Active').check();
      await save(page);
      await searchTab(page, demo.nfc.barcode);
      await rowWith(page, name).waitFor();

      const guest = await openGuestPage(browser, WIDTHS.mobile);
      try {
        await openPass(guest.page, demo.nfc.orderId, demo.nfc.barcode);
        await passCard(guest.page).waitFor();
        await expect(computedColors(guest.page, 'article.pass-card')).resolves.toEqual({
          background: 'rgb(90, 24, 154)',
          color: 'rgb(255, 255, 255)',
        });
      } finally {
        await guest.close();
      }

      // Restore: delete the mapping (with its confirmation) and the customization.
      await rowWith(page, name).click();
      await modal(page).getByRole('button', { name: 'Delete' }).click();
      await modal(page).getByText('Delete this record?').waitFor();
      await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
      await modal(page).waitFor({ state: 'detached' });
      await rowWith(page, name).waitFor({ state: 'detached' });
      await openTab(page, 'Pass Customizations');
      await searchTab(page, name);
      await rowWith(page, name).click();
      await modal(page).getByRole('button', { name: 'Delete' }).click();
      await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
      await modal(page).waitFor({ state: 'detached' });
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
      await removeMappingsOf(demo.nfc.barcode);
    }
  });

  it('keeps the modal open with the server message on a 400, and bounces on a backdrop click', async () => {
    const staff = await openStaffPage(browser);
    const { page } = staff;
    try {
      await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await openTab(page, 'Team');
      await page.getByRole('button', { name: 'Add New' }).click();
      const member = { ...aTeamMember(5), password: 'short' };
      await fillTeamMember(page, member);
      await modal(page).getByRole('button', { name: 'Save' }).click();
      const message = modal(page).getByRole('alert');
      await message.locator('.alert').waitFor();
      await expect(message.textContent()).resolves.toContain('Change Password must be at least 12 characters');
      await expect(field(page, 'Last Name').inputValue()).resolves.toBe(member.lastName);
      await expect(field(page, 'Email').inputValue()).resolves.toBe(member.email);

      // 409: the server's message, the modal still open.
      await field(page, 'Change Password').fill(member.password.padEnd(16, 'x'));
      await field(page, 'Email').fill(STAFF_ADMIN.email);
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await page.waitForFunction(
        () =>
          /Email/.test(document.querySelector('.modal [role="alert"] .alert')?.textContent ?? '') &&
          !/Change Password/.test(document.querySelector('.modal [role="alert"] .alert')?.textContent ?? ''),
      );
      await expect(modal(page).isVisible()).resolves.toBe(true);

      // A network failure: "Unable to submit, please try again later.", the modal still open.
      await field(page, 'Email').fill(member.email);
      await page.route('**/api/admin/team-member/', (route) => (route.request().method() === 'POST' ? route.abort() : route.continue()));
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await page.getByText('Unable to submit, please try again later.').waitFor();
      await page.unroute('**/api/admin/team-member/');
      await expect(field(page, 'Last Name').inputValue()).resolves.toBe(member.lastName);

      // The static backdrop: a click outside the dialog does not close it; it bounces 100 ms.
      // A MutationObserver times the modal-static class (too short-lived to poll for).
      await page.evaluate(() => {
        const target = document.querySelector('.modal')!;
        const seen: { on: number; off: number } = { on: 0, off: 0 };
        (window as unknown as { bounce: typeof seen }).bounce = seen;
        new MutationObserver(() => {
          if (target.classList.contains('modal-static')) seen.on ||= performance.now();
          else if (seen.on) seen.off ||= performance.now();
        }).observe(target, { attributes: true, attributeFilter: ['class'] });
      });
      await page.mouse.click(4, 400);
      await page.waitForFunction(() => (window as unknown as { bounce: { off: number } }).bounce.off > 0, null, { timeout: 2_000 });
      const bounce = await page.evaluate(() => (window as unknown as { bounce: { on: number; off: number } }).bounce);
      expect(bounce.off - bounce.on).toBeGreaterThanOrEqual(80);
      expect(bounce.off - bounce.on).toBeLessThan(400);
      await expect(modal(page).isVisible()).resolves.toBe(true);
      await expect(page.evaluate(() => getComputedStyle(document.querySelector('.modal-dialog')!).transitionDuration)).resolves.toBe(
        '0.1s',
      );
      await modal(page).getByRole('button', { name: 'Cancel' }).click();
      await modal(page).waitFor({ state: 'detached' });
    } finally {
      await staff.close();
    }
  });

  it('shows the permission toast on a 403 when a permission is raised above the member while they work', async () => {
    const member = aTeamMember(10, 'Raised');
    await createTeamMember(adminToken, member);
    const permissions = await staffApi(adminToken, 'GET', '/api/admin/permission/?search=Test%20Passes%20Create');
    const create = (permissions.json as Record<string, unknown>[]).find((p) => p.permissionName === 'Test Passes Create');
    if (!create) throw new Error('no Test Passes Create permission');
    const id = String(create.permissionGUID);
    const staff = await openStaffPage(browser);
    const { page } = staff;
    try {
      await logIn(page, member.email, member.password);
      await openTab(page, 'Test Passes');
      await page.getByRole('button', { name: 'Add New' }).click();
      await field(page, 'Barcode').fill('99000777');
      const raised = await staffApi(adminToken, 'PUT', `/api/admin/permission/${id}`, { permissionMinimumAccessLevel: 100 });
      expect(raised.status).toBe(200);
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await page.getByText('You do not have permission to do that.').waitFor();
      await expect(modal(page).isVisible()).resolves.toBe(true);
      await expect(page.url()).toContain('/admin');
    } finally {
      await staffApi(adminToken, 'PUT', `/api/admin/permission/${id}`, { permissionMinimumAccessLevel: 10 });
      await staff.close();
    }
  });

  it('refuses, with the server message in a toast, a new member above the level of the one adding them', async () => {
    // Level 100 holds the Team permissions (the seeded administrator level), not level 1000.
    const lead = aTeamMember(100, 'Lead');
    await createTeamMember(adminToken, lead);
    const staff = await openStaffPage(browser);
    const { page } = staff;
    try {
      await logIn(page, lead.email, lead.password);
      await openTab(page, 'Team');
      await page.getByRole('button', { name: 'Add New' }).click();
      const member = aTeamMember(1000, 'TooHigh');
      await fillTeamMember(page, member);
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await page.getByText('You cannot grant an access level above your own (100).').waitFor();
      await expect(modal(page).isVisible()).resolves.toBe(true);
      const found = await staffApi(adminToken, 'GET', `/api/admin/team-member/?search=${encodeURIComponent(member.email)}`);
      expect(found.json).toEqual([]);
    } finally {
      await staff.close();
    }
  });

  it("ends a member's session from the Session tab: their next call logs them out", async () => {
    const member = aTeamMember(10, 'Session');
    await createTeamMember(adminToken, member);
    const victim = await openStaffPage(browser, WIDTHS.mobile);
    const admin = await openStaffPage(browser);
    try {
      await logIn(victim.page, member.email, member.password);
      await signIn(admin.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await openTab(admin.page, 'Session');
      // No add button and no delete on the Session tab.
      await expect(admin.page.getByRole('button', { name: 'Add New' }).count()).resolves.toBe(0);
      const row = rowWith(admin.page, member.lastName);
      await row.waitFor();
      await row.click();
      await expect(modal(admin.page).getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
      await expect(field(admin.page, 'Start').isDisabled()).resolves.toBe(true);
      await expect(field(admin.page, 'End').getAttribute('step')).resolves.toBe('1');
      // The end time one minute ago, in the browser's local time as the input takes it.
      const past = await admin.page.evaluate(() => {
        const d = new Date(Date.now() - 60_000);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      });
      await field(admin.page, 'End').fill(past);
      await save(admin.page);

      // The member's next call answers 401: the toast, then the login page 5 seconds later.
      await goToTab(victim.page, 'Test Passes');
      await victim.page.getByText('Session Expired, Logging Out.').waitFor();
      await expect(victim.page.url()).toContain('/admin');
      await victim.page.waitForURL('**/login', { timeout: 8_000 });
      await victim.page.getByRole('heading', { level: 1, name: 'Team Member Login' }).waitFor();
    } finally {
      await victim.close();
      await admin.close();
    }
  });
});

/** Safety net for a failed run: removes the categories mapped to this barcode. */
async function removeMappingsOf(barcode: string) {
  const list = await staffApi(adminToken, 'GET', `/api/admin/pass-customization-categories/?search=${barcode}`);
  for (const row of (list.json as Record<string, unknown>[] | undefined) ?? []) {
    if (row.passCustomizationTTbarcode === barcode)
      await staffApi(
        adminToken,
        'DELETE',
        `/api/admin/pass-customization-categories/${String(row.passCustomizationTTpassCustomizationsGUID)}`,
      );
  }
}

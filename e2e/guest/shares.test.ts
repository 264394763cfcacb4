// Ticket shares in the browser (the section, the modal, its validation and failures) on the
// demo's Stored Value Card (10000002, shared with Rosa Diaz). Every share a test makes is
// stopped again by the same test, so the demo keeps its one share.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answerWithError,
  baseUrl,
  cardDetail,
  demo,
  expectNoAxeViolations,
  guestTabs,
  inGuestPage,
  launchBrowser,
  passCard,
  screenshot,
  USER_AGENTS,
  type Width,
  WIDTHS,
} from '../support/browser.ts';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
});
afterAll(async () => {
  await browser?.close();
});

const inPage = (body: (page: Page) => Promise<void>, width: Width = WIDTHS.mobile, userAgent?: string) =>
  tabs.inPage(body, { width, userAgent });

const { orderId, barcode } = demo.storedValue;
const ownerPath = `/${orderId}/${barcode}`;
const section = (page: Page) => page.getByRole('region', { name: 'Manage Ticket Shares' });
const dialog = (page: Page) => page.getByRole('dialog');
const rows = (page: Page) => section(page).getByRole('list', { name: 'Guests this ticket is shared with' }).getByRole('listitem');
const toast = (page: Page) => page.locator('.share-toast');

/** Waits for the modal to be open and its fade to have finished (axe reads colours mid-fade otherwise). */
async function modalOpen(page: Page, title: string) {
  await dialog(page).getByRole('heading', { name: title }).waitFor();
  await page.waitForFunction(() => document.querySelector('.modal.show') !== null && document.getAnimations().length === 0);
}

async function openOwner(page: Page) {
  await page.goto(ownerPath);
  await passCard(page).waitFor();
  await section(page).waitFor();
}

async function fill(page: Page, values: { firstName?: string; lastName?: string; email?: string; phone?: string }) {
  const d = dialog(page);
  if (values.firstName !== undefined) await d.getByLabel('First Name').fill(values.firstName);
  if (values.lastName !== undefined) await d.getByLabel('Last Name').fill(values.lastName);
  if (values.email !== undefined) await d.getByLabel('Email').fill(values.email);
  if (values.phone !== undefined) {
    // As a guest clears a masked field: select all, delete, type.
    const phone = d.getByLabel('Phone');
    await phone.click();
    await phone.press('ControlOrMeta+A');
    await phone.press('Backspace');
    await phone.pressSequentially(values.phone);
  }
}

/** The share token and shares of the demo ticket, as the owner's login answers them. */
async function ownerOrder() {
  const res = await fetch(`${baseUrl()}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.55.0.1' },
    body: JSON.stringify({ orderId, barcode }),
  });
  return (await res.json()) as { ticketShareToken: string; ticketShares: { id: string; firstName: string; email: string }[] };
}

/** Stops, through the API, any share a failed test may have left (all but the demo's Rosa Diaz). */
async function stopLeftovers() {
  const order = await ownerOrder();
  for (const share of order.ticketShares.filter((s) => s.email !== 'rosa.diaz@example.com')) {
    await fetch(`${baseUrl()}/api/share/${orderId}/${barcode}/${share.id}/`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${order.ticketShareToken}` },
    });
  }
}
beforeEach(stopLeftovers);
afterAll(stopLeftovers);

describe("the owner's share section", () => {
  it.each([WIDTHS.mobile, WIDTHS.desktop])('lists the active shares loaded with the token (%i px)', (width) =>
    inPage(async (page) => {
      const listed = page.waitForRequest((r) => r.method() === 'GET' && r.url().endsWith(`/api/share/${barcode}`));
      await openOwner(page);
      expect((await listed).headers().authorization).toMatch(/^Bearer \S+$/);
      await rows(page).first().waitFor();
      await expect(rows(page).count()).resolves.toBe(1);
      const row = rows(page).first();
      await expect(row.textContent()).resolves.toContain('Rosa Diaz');
      await expect(row.textContent()).resolves.toContain('rosa.diaz@example.com');
      await expect(row.textContent()).resolves.toContain('(310) 555-0142');
      await expect(section(page).getByRole('button', { name: 'Share With a Guest' }).isVisible()).resolves.toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'shares-section');
    }, width),
  );

  it.each([WIDTHS.mobile, WIDTHS.desktop])('says so when the ticket is shared with nobody (204) (%i px)', (width) =>
    inPage(async (page) => {
      await page.route(`**/api/share/${barcode}`, (route) => route.fulfill({ status: 204, body: '' }));
      await openOwner(page);
      await section(page).getByText('This ticket is not shared with anyone yet.').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'shares-empty');
    }, width),
  );

  it('shows the list errors: 408 the expired-session text, others "Unable to retrieve guests", no answer "Error retrieving guests"', () =>
    inPage(async (page) => {
      const listAlert = () => section(page).getByRole('alert');
      await answerWithError(page, `/api/share/${barcode}`, 408, 'expired');
      await openOwner(page);
      await expect(listAlert().textContent()).resolves.toBe('This ticket sharing session has expired. Please refresh and try again.');
      await expectNoAxeViolations(page);
      await screenshot(page, 'shares-expired');

      await page.unroute(`**/api/share/${barcode}`);
      await answerWithError(page, `/api/share/${barcode}`, 500, 'boom');
      await page.reload();
      await section(page).waitFor();
      await expect(listAlert().textContent()).resolves.toBe('Unable to retrieve guests');

      await page.unroute(`**/api/share/${barcode}`);
      await page.route(`**/api/share/${barcode}`, (route) => route.abort());
      await page.reload();
      await section(page).waitFor();
      await expect(listAlert().textContent()).resolves.toBe('Error retrieving guests');
    }));
});

describe('the share modal', () => {
  it.each([WIDTHS.mobile, WIDTHS.desktop])(
    'sets up a share: required fields, email check, busy state, toast, list reloaded (%i px)',
    (width) =>
      inPage(async (page) => {
        await openOwner(page);
        await section(page).getByRole('button', { name: 'Share With a Guest' }).click();
        const d = dialog(page);
        await modalOpen(page, 'Set Up Ticket Share');
        const start = d.getByRole('button', { name: 'Start Sharing' });
        await expect(start.isDisabled()).resolves.toBe(true);
        await expect(d.getByLabel('First Name').getAttribute('required')).resolves.toBe('');
        await expect(d.getByLabel('Phone').getAttribute('required')).resolves.toBeNull();
        await expectNoAxeViolations(page);
        await screenshot(page, 'shares-modal-new');

        await fill(page, { firstName: 'Mia', lastName: 'Chen' });
        await expect(start.isDisabled()).resolves.toBe(true);
        await fill(page, { email: 'mia@example' });
        await expect(start.isDisabled()).resolves.toBe(false);
        let posts = 0;
        page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/api/share/') && posts++));
        await start.click();
        await expect(d.locator('#share-email-error').textContent()).resolves.toBe('Email is not valid');
        await expect(d.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
        expect(posts).toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'shares-modal-invalid');

        const email = `mia.chen.${width}@example.com`;
        await fill(page, { email, phone: '3105550177' });
        await expect(d.getByLabel('Phone').inputValue()).resolves.toBe('(310) 555-0177');
        // Busy while the call runs.
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/share/', async (route) => {
          await held;
          await route.continue();
        });
        const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/share/'));
        const reloaded = page.waitForRequest((r) => r.method() === 'GET' && r.url().endsWith(`/api/share/${barcode}`));
        await start.click();
        await d.getByRole('button', { name: 'Sharing…' }).waitFor();
        await expect(d.getByLabel('First Name').isDisabled()).resolves.toBe(true);
        release();
        const answer = await created;
        expect(answer.status()).toBe(200);
        expect(answer.request().postDataJSON()).toMatchObject({
          orderId,
          barcode,
          firstName: 'Mia',
          lastName: 'Chen',
          email,
          phone: '3105550177',
        });
        await reloaded;
        await toast(page).filter({ hasText: 'Share successful' }).waitFor();
        await d.waitFor({ state: 'detached' });
        await rows(page).filter({ hasText: email }).waitFor();
        await expect(rows(page).count()).resolves.toBe(2);
        await expectNoAxeViolations(page);
        await screenshot(page, 'shares-created');

        // Modify it: prefilled, phone in the mask; Update Info; then Stop Sharing.
        await rows(page).filter({ hasText: email }).getByRole('button').click();
        await modalOpen(page, 'Modify Ticket Share');
        await expect(d.getByLabel('First Name').inputValue()).resolves.toBe('Mia');
        await expect(d.getByLabel('Phone').inputValue()).resolves.toBe('(310) 555-0177');
        await expect(d.getByRole('button', { name: 'Update Info' }).isVisible()).resolves.toBe(true);
        await expect(d.getByRole('button', { name: 'Stop Sharing' }).isVisible()).resolves.toBe(true);
        await expectNoAxeViolations(page);
        await screenshot(page, 'shares-modal-edit');

        await fill(page, { lastName: 'Chen-Park', phone: '3105550188' });
        const put = page.waitForResponse((r) => r.request().method() === 'PUT');
        await d.getByRole('button', { name: 'Update Info' }).click();
        expect((await put).status()).toBe(200);
        await toast(page).filter({ hasText: 'Update successful' }).waitFor();
        await d.waitFor({ state: 'detached' });
        const row = rows(page).filter({ hasText: email });
        await row.filter({ hasText: 'Mia Chen-Park' }).waitFor();
        await expect(row.textContent()).resolves.toContain('(310) 555-0188');

        await row.getByRole('button').click();
        await modalOpen(page, 'Modify Ticket Share');
        const del = page.waitForResponse((r) => r.request().method() === 'DELETE');
        await d.getByRole('button', { name: 'Stop Sharing' }).click();
        const deleted = await del;
        expect(deleted.status()).toBe(204);
        expect(new URL(deleted.url()).pathname).toMatch(new RegExp(`^/api/share/${orderId}/${barcode}/[0-9a-f-]{36}/$`));
        await toast(page).filter({ hasText: 'Guest removed' }).waitFor();
        await d.waitFor({ state: 'detached' });
        await rows(page).filter({ hasText: email }).waitFor({ state: 'detached' });
        await expect(rows(page).count()).resolves.toBe(1);
        await expectNoAxeViolations(page);
      }, width),
  );

  it('shows the 408 text, the server\'s 400 reason, "Unable to share with guest" and "Error sharing with guest" in the modal', () =>
    inPage(async (page) => {
      await openOwner(page);
      await section(page).getByRole('button', { name: 'Share With a Guest' }).click();
      await modalOpen(page, 'Set Up Ticket Share');
      await fill(page, { firstName: 'Lee', lastName: 'Kim', email: 'lee@example.com' });
      const d = dialog(page);
      const start = d.getByRole('button', { name: 'Start Sharing' });
      const modalAlert = () => d.getByRole('alert').locator('.alert');

      await answerWithError(page, '/api/share/', 408, 'expired');
      await start.click();
      await expect(modalAlert().textContent()).resolves.toBe('This ticket sharing session has expired. Please refresh and try again.');
      await expectNoAxeViolations(page);
      await screenshot(page, 'shares-modal-expired');

      await page.unroute('**/api/share/');
      await page.route('**/api/share/', (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          json: {
            statusCode: 400,
            error: 'VALIDATION_FAILED',
            message: 'A ticket can be shared with at most 10 guests.',
            reason: 'SHARE_LIMIT_REACHED',
            params: { limit: 10 },
          },
        }),
      );
      await start.click();
      await expect(modalAlert().textContent()).resolves.toBe('A ticket can be shared with at most 10 guests.');

      await page.unroute('**/api/share/');
      await answerWithError(page, '/api/share/', 500, 'boom');
      await start.click();
      await expect(modalAlert().textContent()).resolves.toBe('Unable to share with guest');

      await page.unroute('**/api/share/');
      await page.route('**/api/share/', (route) => route.abort());
      await start.click();
      await expect(modalAlert().textContent()).resolves.toBe('Error sharing with guest');
      // Nothing was shared: the modal stays open with the guest's input.
      await expect(d.getByLabel('Email').inputValue()).resolves.toBe('lee@example.com');
    }));

  it('shows "Unable to update", "Error updating", "Unable to unshare with guest" and "Error unsharing with guest"', () =>
    inPage(async (page) => {
      await openOwner(page);
      await rows(page).first().getByRole('button').click();
      const d = dialog(page);
      await modalOpen(page, 'Modify Ticket Share');
      const modalAlert = () => d.getByRole('alert').locator('.alert');
      const shareCalls = (handler: Parameters<Page['route']>[1]) =>
        page.route((url) => url.pathname.startsWith('/api/share/') && url.pathname !== `/api/share/${barcode}`, handler);

      await shareCalls((route) =>
        route.fulfill({ status: 500, contentType: 'application/json', json: { statusCode: 500, error: 'INTERNAL', message: 'x' } }),
      );
      await d.getByRole('button', { name: 'Update Info' }).click();
      await expect(modalAlert().textContent()).resolves.toBe('Unable to update');
      await d.getByRole('button', { name: 'Stop Sharing' }).click();
      await expect(modalAlert().textContent()).resolves.toBe('Unable to unshare with guest');

      await page.unrouteAll();
      await shareCalls((route) => route.abort());
      await d.getByRole('button', { name: 'Update Info' }).click();
      await expect(modalAlert().textContent()).resolves.toBe('Error updating');
      await d.getByRole('button', { name: 'Stop Sharing' }).click();
      await expect(modalAlert().textContent()).resolves.toBe('Error unsharing with guest');
      // Rosa is still on the ticket.
      await d.getByRole('button', { name: 'Close' }).click();
      await d.waitFor({ state: 'detached' });
      await expect(rows(page).count()).resolves.toBe(1);
    }));
});

describe('in Spanish', () => {
  it("words the section, the modal, its checks and the server's refusals in Spanish (360 and 1280 px)", () =>
    inGuestPage(
      browser,
      WIDTHS.mobile,
      async (page) => {
        await page.goto(ownerPath);
        const region = page.getByRole('region', { name: 'Administrar boletos compartidos' });
        await region.getByRole('list', { name: 'Visitantes con quienes se comparte este boleto' }).waitFor();
        await region.getByRole('button', { name: 'Modificar lo compartido con Rosa Diaz' }).waitFor();
        await region.getByRole('button', { name: 'Compartir con un visitante' }).click();
        await modalOpen(page, 'Compartir el boleto');
        const d = dialog(page);
        await d.getByText('Le enviaremos al visitante por correo su propio enlace a este pase.', { exact: false }).waitFor();
        await d.getByLabel('Nombre').fill('Lee2');
        await d.getByLabel('Apellido').fill('Kim');
        await d.getByLabel('Correo').fill('lee@example');
        await d.getByRole('button', { name: 'Compartir', exact: true }).click();
        await expect(d.locator('#share-firstName-error').textContent()).resolves.toBe(
          'El nombre solo puede tener letras, espacios, guiones, apóstrofos y puntos',
        );
        await expect(d.locator('#share-email-error').textContent()).resolves.toBe('El correo no es válido');
        await d.getByText('(opcional)').waitFor();
        for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
          await page.setViewportSize({ width, height: width === WIDTHS.mobile ? 780 : 900 });
          await expectNoAxeViolations(page);
          await screenshot(page, 'es-shares-modal-validation');
        }

        // The server's refusals, named by their code, with the figure its answer gives.
        await d.getByLabel('Nombre').fill('Lee');
        await d.getByLabel('Correo').fill('lee@example.com');
        const modalAlert = () => d.getByRole('alert').locator('.alert');
        const refuse = (status: number, error: string, message: string, reason: string, limit: number) =>
          page.route('**/api/share/', (route) =>
            route.fulfill({
              status,
              contentType: 'application/json',
              json: { statusCode: status, error, message, reason, params: { limit } },
            }),
          );
        await refuse(400, 'VALIDATION_FAILED', 'A ticket can be shared with at most 10 guests.', 'SHARE_LIMIT_REACHED', 10);
        await d.getByRole('button', { name: 'Compartir', exact: true }).click();
        await expect(modalAlert().textContent()).resolves.toBe('Un boleto se puede compartir con 10 visitantes como máximo.');
        await page.unroute('**/api/share/');
        await refuse(
          429,
          'TOO_MANY_ATTEMPTS',
          'This ticket has sent its 3 share emails for today. Try again after 2 AM (park time).',
          'SHARE_MAIL_LIMIT_REACHED',
          3,
        );
        await d.getByRole('button', { name: 'Compartir', exact: true }).click();
        await expect(modalAlert().textContent()).resolves.toBe(
          'Este boleto ya envió hoy sus 3 correos para compartir. Intente de nuevo después de las 2 a. m. (hora del parque).',
        );
        await page.unroute('**/api/share/');
        await answerWithError(page, '/api/share/', 408, 'expired');
        await d.getByRole('button', { name: 'Compartir', exact: true }).click();
        await expect(modalAlert().textContent()).resolves.toBe(
          'La sesión para compartir este boleto venció. Actualice la página e intente de nuevo.',
        );
        await screenshot(page, 'es-shares-modal-refused');
        await d.getByRole('button', { name: 'Cerrar' }).click();
        await d.waitFor({ state: 'detached' });
      },
      { locale: 'es-US' },
    ));
});

describe("the shared guest's view", () => {
  it.each([WIDTHS.mobile, WIDTHS.desktop])(
    'by link: Primary Ticketholder and Shared With; no voucher, no Edit Registration, no share section (%i px)',
    (width) =>
      inPage(async (page) => {
        await page.goto(`/${demo.shareLinks.active}`);
        await passCard(page).waitFor();
        await expect(cardDetail(page, 'Primary Ticketholder')).resolves.toBe('Carl Diaz');
        await expect(cardDetail(page, 'Shared With')).resolves.toBe('Rosa Diaz');
        await page.getByText('Use a mobile device to add pass to your digital wallet').waitFor();
        await expect(page.getByRole('button', { name: 'Print Voucher' }).count()).resolves.toBe(0);
        await expect(page.getByRole('button', { name: 'Edit Registration' }).count()).resolves.toBe(0);
        await expect(section(page).count()).resolves.toBe(0);
        await expect(page.getByText('Manage Ticket Shares').count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'shares-shared-view');
      }, width),
  );

  it('by share id: the same view, and its wallet button sends the share id', async () => {
    const rosa = (await ownerOrder()).ticketShares.find((s) => s.email === 'rosa.diaz@example.com')!;
    await inPage(
      async (page) => {
        await page.goto(`${ownerPath}/${rosa.id}`);
        await passCard(page).waitFor();
        await expect(cardDetail(page, 'Shared With')).resolves.toBe('Rosa Diaz');
        await expect(section(page).count()).resolves.toBe(0);
        await expect(page.getByRole('button', { name: 'Edit Registration' }).count()).resolves.toBe(0);
        const request = page.waitForRequest((r) => r.url().endsWith('/api/apple-wallet/'));
        await page.getByRole('button', { name: /Apple Wallet/ }).click();
        expect((await request).postDataJSON()).toEqual({ orderId, barcode, shareId: rosa.id });
        await page.getByRole('status').filter({ hasText: 'Generating Pass Please wait...' }).waitFor({ state: 'hidden' });
      },
      WIDTHS.mobile,
      USER_AGENTS.iPhone,
    );
  });

  it('the owner view of a ticket without credits has no share section', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.passholder.orderId}/${demo.passholder.barcode}`);
      await passCard(page).waitFor();
      await page.getByRole('button', { name: 'Start Over' }).waitFor();
      await expect(section(page).count()).resolves.toBe(0);
    }));
});

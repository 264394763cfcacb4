// The guest journey of the README: an unregistered day ticket, registered in the browser.
// This file is the only one that registers 10000003; the others never assume it is unregistered.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appTookOver,
  cardDetail,
  computedColors,
  demo,
  launchBrowser,
  openGuestPage,
  passCard,
  screenshot,
  unexpectedProblems,
  WIDTHS,
} from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('guest journey: register a day ticket', () => {
  it('looks up, registers, shows the Day Ticket card, survives a reload and starts over', async () => {
    const guest = await openGuestPage(browser, WIDTHS.mobile);
    const { page } = guest;
    try {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Find Your Pass');
      const orderIdField = page.getByLabel('Order ID');
      await expect(orderIdField.getAttribute('inputmode')).resolves.toBe('numeric');
      await expect(page.getByLabel('Barcode').getAttribute('inputmode')).resolves.toBe('numeric');

      await orderIdField.fill(demo.unregistered.orderId);
      await page.getByLabel('Barcode').fill(demo.unregistered.barcode);
      await appTookOver(page);
      await page.getByRole('button', { name: 'Find My Pass' }).click();

      // No name on the ticket: the registration form, with the order id and barcode locked.
      await page.getByRole('heading', { level: 1, name: 'Register Your Pass' }).waitFor();
      await page.waitForURL(`**/${demo.unregistered.orderId}/${demo.unregistered.barcode}`);
      const form = page.locator('form');
      await expect(form.getByLabel('Order ID').inputValue()).resolves.toBe(demo.unregistered.orderId);
      await expect(form.getByLabel('Order ID').isDisabled()).resolves.toBe(true);
      await expect(form.getByLabel('Barcode').isDisabled()).resolves.toBe(true);
      await expect(page.getByText('help and stop short code', { exact: false }).count()).resolves.toBe(0);
      const consent = (await page.locator('#sms-consent').textContent()) ?? '';
      for (const phrase of [
        'Message frequency varies',
        'HELP',
        'STOP',
        'Message and data rates may apply',
        'Consent is not a condition of purchase',
        '36401',
      ]) {
        expect(consent).toContain(phrase);
      }

      // The registration form's validation, next to the fields.
      await page.getByLabel('First Name').fill('Lee');
      await page.getByLabel('Last Name').fill('Kim');
      await page.getByLabel('Email', { exact: true }).fill('lee.kim@example');
      await page.getByLabel('Phone', { exact: true }).pressSequentially('310555');
      await expect(page.getByLabel('Phone', { exact: true }).inputValue()).resolves.toBe('(310) 555');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.locator('#email-error').textContent()).resolves.toBe('Email is not valid');
      await expect(page.locator('#phone-error').textContent()).resolves.toBe('Phone must have at least 10 digits');
      await expect(page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByLabel('Email', { exact: true }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await screenshot(page, 'registration-errors');

      await page.getByLabel('Email', { exact: true }).fill('lee.kim@example.com');
      await page.getByLabel('Phone', { exact: true }).click();
      await page.keyboard.press('End');
      await page.keyboard.type('0123');
      await expect(page.getByLabel('Phone', { exact: true }).inputValue()).resolves.toBe('(310) 555-0123');
      await page.getByLabel('Yes, email me news and announcements', { exact: false }).check();
      const registered = page.waitForRequest((r) => r.url().endsWith('/api/register/'));
      await page.getByRole('button', { name: 'Register' }).click();
      const body = (await registered).postDataJSON() as Record<string, unknown>;
      expect(body).toMatchObject({
        orderId: demo.unregistered.orderId,
        barcode: demo.unregistered.barcode,
        firstName: 'Lee',
        lastName: 'Kim',
        email: 'lee.kim@example.com',
        phone: '3105550123',
        optInEmailMarketing: true,
        optInSMSMarketing: false,
      });

      // Saved: the form closes and the purple Day Ticket card shows.
      await passCard(page).waitFor();
      await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Day Ticket');
      const colors = await computedColors(page, 'article.pass-card');
      expect(colors).toEqual({ background: 'rgb(123, 44, 191)', color: 'rgb(255, 214, 10)' });
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Lee Kim');
      await expect(cardDetail(page, 'Purchaser')).resolves.toBe('Dana Kim');
      await expect(page.getByTestId('pass-balance').textContent()).resolves.toBe('$0.00');
      await expect(page.getByRole('button', { name: 'Edit Registration' }).count()).resolves.toBe(1);
      await expect(page.title()).resolves.toBe('Your Pass | Boardwalk');
      await screenshot(page, 'journey-pass');

      // The URL names the pass: a reload logs in again and shows the same card.
      await page.reload();
      await passCard(page).waitFor();
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Lee Kim');
      expect(new URL(page.url()).pathname).toBe(`/${demo.unregistered.orderId}/${demo.unregistered.barcode}`);

      // Start Over: back to / with an empty form.
      await page.getByRole('button', { name: 'Start Over' }).click();
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('');
      await expect(page.getByLabel('Barcode').inputValue()).resolves.toBe('');

      expect(unexpectedProblems(guest.problems)).toEqual([]);
    } finally {
      await guest.close();
    }
  });
});

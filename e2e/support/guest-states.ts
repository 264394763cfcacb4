// Every state of the main pass page (with its photo steps, photo-states.ts) and of the other
// guest areas (area-states.ts), reached the way a guest reaches it, for the states test
// (e2e/guest/states.test.ts: axe and screenshots). Lookups that fail are answered by the
// browser (route mocks) so these files spend none of the server's failed-lookup allowance.
import type { Page } from 'playwright-core';
import {
  appTookOver,
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
import { areaStates } from './area-states.ts';
import { loyaltyStates } from './loyalty-states.ts';
import { photoStates } from './photo-states.ts';

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: text }).waitFor();
/** Waits for a text of the page, exactly. */
const text = (page: Page, words: string) => page.getByText(words, { exact: true }).first().waitFor();

/** The pass page's lookup in Spanish. */
async function openPassInSpanish(page: Page, login: { orderId: string; barcode: string }) {
  await page.goto('/');
  await heading(page, 'Encuentre su pase');
  await page.getByLabel('Número de pedido').fill(login.orderId);
  await page.getByLabel('Código de barras').fill(login.barcode);
  await appTookOver(page);
  await page.getByRole('button', { name: 'Buscar mi pase' }).click();
}

async function showPass(page: Page, login: { orderId: string; barcode: string }, spanish = false) {
  await (spanish ? openPassInSpanish(page, login) : openPass(page, login.orderId, login.barcode));
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
    spanish: async (page) => {
      await page.goto('/');
      await heading(page, 'Encuentre su pase');
      await page.getByRole('button', { name: 'Buscar mi pase' }).waitFor();
    },
  },
  {
    name: 'login-validation',
    open: async (page) => {
      await page.goto('/');
      await page.getByLabel('Order ID').fill('123');
      await appTookOver(page);
      await page.getByRole('button', { name: 'Find My Pass' }).click();
      await page.locator('#barcode-error').waitFor();
    },
    spanish: async (page) => {
      await page.goto('/');
      await page.getByLabel('Número de pedido').fill('123');
      await appTookOver(page);
      await page.getByRole('button', { name: 'Buscar mi pase' }).click();
      await page.locator('#orderId-error', { hasText: 'El número de pedido debe tener 8 dígitos' }).waitFor();
      await page.locator('#barcode-error', { hasText: 'El código de barras es obligatorio' }).waitFor();
    },
  },
  {
    name: 'login-not-found',
    open: async (page) => {
      await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
      await openPass(page, '10000099', '1000000000000999');
      await page.getByRole('alert').getByText('Unable to locate order').waitFor();
    },
    // The server's English words are not shown: the page words the failure.
    spanish: async (page) => {
      await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
      await openPassInSpanish(page, { orderId: '10000099', barcode: '1000000000000999' });
      await page.getByRole('alert').getByText('No se encontró el pedido').waitFor();
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
    spanish: async (page) => {
      await page.route('**/api/login/', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      });
      await page.goto(`/${demo.passholder.orderId}/${demo.passholder.barcode}`);
      await page.getByRole('status').getByText('Buscando su pase…').waitFor();
    },
  },
  {
    name: 'registration',
    open: async (page) => {
      await answerWithoutHolderName(page);
      await openPass(page, demo.wristband.orderId, demo.wristband.barcode);
      await heading(page, 'Register Your Pass');
    },
    spanish: async (page) => {
      await answerWithoutHolderName(page);
      await openPassInSpanish(page, demo.wristband);
      await heading(page, 'Registre su pase');
      await page.locator('legend', { hasText: 'Noticias y ofertas (opcional)' }).waitFor();
      await page.locator('#sms-consent', { hasText: 'Responda HELP para obtener ayuda y STOP para cancelar.' }).waitFor();
    },
  },
  {
    name: 'registration-validation',
    open: async (page) => {
      await answerWithoutHolderName(page);
      await openPass(page, demo.wristband.orderId, demo.wristband.barcode);
      await heading(page, 'Register Your Pass');
      // By its id: the states test opens this state in the pseudo-language too (its label is then ⟦Email⟧).
      await page.locator('#email').fill('hana.sato@example');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.locator('#email-error').waitFor();
    },
    spanish: async (page) => {
      await answerWithoutHolderName(page);
      await openPassInSpanish(page, demo.wristband);
      await heading(page, 'Registre su pase');
      await page.getByLabel('Correo', { exact: true }).fill('hana.sato@example');
      await page.getByRole('button', { name: 'Registrar' }).click();
      await page.locator('#email-error', { hasText: 'El correo no es válido' }).waitFor();
    },
  },
  {
    name: 'edit-registration',
    open: async (page) => {
      await showPass(page, demo.passholder);
      await page.getByRole('button', { name: 'Edit Registration' }).click();
      await heading(page, 'Edit Registration');
    },
    spanish: async (page) => {
      await showPass(page, demo.passholder, true);
      await page.getByRole('button', { name: 'Editar registro' }).click();
      await heading(page, 'Editar registro');
      await page.getByRole('button', { name: 'Cancelar' }).waitFor();
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
  {
    name: 'pass-passholder',
    open: (page) => showPass(page, demo.passholder),
    spanish: async (page) => {
      await showPass(page, demo.passholder, true);
      await heading(page, 'Su pase');
      await text(page, 'Titular');
      await text(page, '¡Esta no es su tarjeta Wild Pass!');
      await page.getByRole('button', { name: 'Empezar de nuevo' }).waitFor();
    },
  },
  {
    name: 'pass-stored-value',
    open: (page) => showPass(page, demo.storedValue),
    spanish: async (page) => {
      await showPass(page, demo.storedValue, true);
      await text(page, 'Créditos');
      await page.getByRole('link', { name: 'Ver saldo' }).waitFor();
      // The owner's share section.
      await page.getByRole('heading', { level: 2, name: 'Administrar boletos compartidos' }).waitFor();
      await page.getByRole('button', { name: 'Compartir con un visitante' }).waitFor();
    },
  },
  { name: 'pass-refunded', open: (page) => showPass(page, demo.refunded) },
  {
    name: 'pass-redeemed',
    open: (page) => showPass(page, demo.redeemed),
    spanish: async (page) => {
      await showPass(page, demo.redeemed, true);
      await page.getByTestId('pass-void').getByText('Anulado').waitFor();
      await page.getByTestId('pass-void').getByText('Ya utilizado', { exact: false }).waitFor();
    },
  },
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
    spanish: async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await heading(page, 'Pase compartido');
      await text(page, 'Compartido con');
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
    },
  },
  // The pass actions (wallet buttons by device); desktop ones show on every pass state above.
  {
    name: 'wallet-iphone',
    userAgent: USER_AGENTS.iPhone,
    open: (page) => showPass(page, demo.wristband),
    spanish: async (page) => {
      await showPass(page, demo.wristband, true);
      await page.getByRole('button', { name: 'Agregar a Apple Wallet' }).waitFor();
    },
  },
  {
    name: 'wallet-android',
    userAgent: USER_AGENTS.android,
    open: (page) => showPass(page, demo.wristband),
    spanish: async (page) => {
      await showPass(page, demo.wristband, true);
      await page.getByRole('button', { name: 'Agregar a Google Wallet' }).waitFor();
    },
  },
  { name: 'wallet-iphone-test-pass', userAgent: USER_AGENTS.iPhone, open: (page) => showPass(page, demo.testPass) },
  {
    name: 'wallet-busy',
    userAgent: USER_AGENTS.iPhone,
    open: async (page) => {
      await page.route('**/api/apple-wallet/', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      });
      await showPass(page, demo.wristband);
      // By its class: the states test opens this state in the pseudo-language too (its name is then ⟦Add to⟧ ⟦Apple Wallet⟧).
      await page.locator('button.wallet-badge--apple').click();
      await page.getByRole('status').getByText('Generating Pass Please wait...').waitFor();
    },
    spanish: async (page) => {
      await page.route('**/api/apple-wallet/', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      });
      await showPass(page, demo.wristband, true);
      await page.getByRole('button', { name: 'Agregar a Apple Wallet' }).click();
      await page.getByRole('status').getByText('Generando el pase. Espere, por favor...').waitFor();
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
    spanish: async (page) => {
      await answerWithError(page, '/api/voucher/', 408, 'Request timeout');
      await showPass(page, demo.wristband, true);
      await text(page, 'Use un dispositivo móvil para agregar el pase a su billetera digital');
      await page.getByRole('button', { name: 'Imprimir comprobante' }).click();
      await page.getByRole('alert').getByText('Error temporal del servidor. Intente de nuevo.').waitFor();
    },
  },
  {
    name: 'exclusion',
    open: async (page) => {
      await openPass(page, demo.excluded.orderId, demo.excluded.barcode);
      await heading(page, 'Pass Not Available');
    },
    spanish: async (page) => {
      await openPassInSpanish(page, demo.excluded);
      await heading(page, 'Pase no disponible');
      await text(page, 'Número de pedido');
      // The message staff wrote in Spanish (the demo's Wallet Item Exclusions).
      await page
        .getByTestId('exclusion-message')
        .getByText('Los comprobantes de socios comerciales no se pueden agregar', { exact: false })
        .waitFor();
    },
  },
  {
    name: 'no-longer-shared',
    open: async (page) => {
      await page.goto(`/${demo.shareLinks.stopped}`);
      await heading(page, 'Pass No Longer Shared');
    },
    spanish: async (page) => {
      await page.goto(`/${demo.shareLinks.stopped}`);
      await heading(page, 'Este pase ya no está compartido');
      await page.getByRole('button', { name: 'Empezar de nuevo' }).waitFor();
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
  ...areaStates,
  ...loyaltyStates,
];

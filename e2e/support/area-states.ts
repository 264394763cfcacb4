// Every state of the guest areas beside the pass page (the wristband activation, the stored-value
// card, the privacy request and the link's page), for the states test (axe and screenshots, in
// English and Spanish, English through the pseudo-language). Each state is reached the same way in
// both languages, waiting on the words of the page's language (`say(english, spanish)`). The
// server's answers that would change data or spend a throttle are answered by the browser.
import type { Page } from 'playwright-core';
import { guestPrivacyMessages, PRIVACY_LINK_REFUSALS, type PrivacyExport, type PrivacyLinkRefusal } from '@boardwalk/contract/privacy';
import type { StoredValueResponse } from '@boardwalk/contract/stored-value';
import { WRISTBAND_REFUSALS, wristbandTexts } from '@boardwalk/contract/wristband';
import type { ErrorReason } from '@boardwalk/contract/errors';
import { answerWithError, demo, type GuestState } from './browser.ts';
import { aWristbandTicket } from './feed.ts';

/** The text in the language of the state being reached. */
export type Say = (english: string, spanish: string) => string;

/** A state reached the same way in English (open) and in Spanish (spanish). */
export function bilingual(name: string, reach: (page: Page, say: Say) => Promise<void>): GuestState {
  return { name, open: (page) => reach(page, (english) => english), spanish: (page) => reach(page, (_, spanish) => spanish) };
}

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: text }).waitFor();
const alert = (page: Page, text: string) => page.getByRole('alert').getByText(text).waitFor();

// ---- The wristband activation ----

/** A band's code of 16 letters and digits. */
const BAND = 'ABCD2345EFGH6789';

async function wristbandReady(page: Page, say: Say, given?: { orderId: string; barcode: string }) {
  // A ticket of its own unless one is given: the code field shows only on an unbound ticket.
  const login = given ?? (await aWristbandTicket('4'));
  await page.goto(`/activate/${login.orderId}/${login.barcode}`);
  await heading(page, say('Activate Your Wristband', 'Active su pulsera'));
  await page.locator('article.pass-card').waitFor();
}

/** The ready state, the code typed and Activate pressed, the activation answered by `answer`. */
async function activate(page: Page, say: Say, answer: (page: Page) => Promise<unknown>) {
  await answer(page);
  await wristbandReady(page, say);
  await page.getByLabel(say('Wristband Code', 'Código de la pulsera')).fill(BAND);
  await page.getByRole('button', { name: say('Activate', 'Activar') }).click();
}

const refusal =
  (status: number, message: string, reason: ErrorReason = {}) =>
  (page: Page) =>
    answerWithError(page, '/api/wristband/activate/', status, message, {}, reason);

/** The server's 401 for a privacy link, as it answers: its English and its reason. */
const refuseLink = (page: Page, why: PrivacyLinkRefusal) =>
  answerWithError(page, '/api/privacy/data', 401, guestPrivacyMessages[why], {}, { reason: PRIVACY_LINK_REFUSALS[why] });

const wristbandStates: GuestState[] = [
  bilingual('wristband-login', async (page, say) => {
    await page.goto('/activate/');
    await heading(page, say('Activate Your Wristband', 'Active su pulsera'));
    await page.getByText(say('of your wristband ticket', 'del boleto de su pulsera')).waitFor();
  }),
  bilingual('wristband-login-not-found', async (page, say) => {
    await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
    await page.goto('/activate/10000099/1000000000000999');
    await alert(page, say('Unable to locate order', 'No se encontró el pedido'));
  }),
  bilingual('wristband-ready', async (page, say) => {
    await wristbandReady(page, say);
    await page
      .getByText(say('The 16 letters and digits printed on your wristband', 'Las 16 letras y números impresos en su pulsera'))
      .waitFor();
  }),
  bilingual('wristband-code-error', async (page, say) => {
    await wristbandReady(page, say);
    await page.getByLabel(say('Wristband Code', 'Código de la pulsera')).fill('ABCD-2345-EFGH-6');
    await page.getByRole('button', { name: say('Activate', 'Activar') }).click();
    await page
      .locator('#wristbandBarcode-error', {
        hasText: say('Wristband code must be 16 letters or digits', 'El código de la pulsera debe tener 16 letras o números'),
      })
      .waitFor();
  }),
  bilingual('wristband-busy', async (page, say) => {
    await activate(page, say, (p) =>
      p.route('**/api/wristband/activate/', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      }),
    );
    await page.getByRole('button', { name: say('Activating…', 'Activando…') }).waitFor();
  }),
  bilingual('wristband-activated', async (page, say) => {
    await activate(page, say, (p) =>
      p.route('**/api/wristband/activate/', (route) => route.fulfill({ contentType: 'text/plain', body: 'Valid through 12/31/26' })),
    );
    await page.getByTestId('wristband-activated').getByText(say('Valid through 12/31/26', 'Válida hasta el 31/12/26')).waitFor();
  }),
  bilingual('wristband-error-already-activated', async (page, say) => {
    await activate(
      page,
      say,
      refusal(403, wristbandTexts.alreadyActivated('through 12/31/26'), {
        reason: WRISTBAND_REFUSALS.alreadyActivated,
        params: { validThrough: '2026-12-31' },
      }),
    );
    await alert(page, say('can be used through 12/31/26', 'se puede usar hasta el 31/12/26'));
  }),
  bilingual('wristband-error-deactivated', async (page, say) => {
    await activate(page, say, refusal(403, wristbandTexts.deactivated, { reason: WRISTBAND_REFUSALS.deactivated }));
    await alert(page, say('This wristband was deactivated', 'Esta pulsera se desactivó'));
  }),
  bilingual('wristband-error-unauthorized', async (page, say) => {
    await activate(page, say, refusal(401, wristbandTexts.unauthorized));
    await alert(page, say('You are unable to activate this wristband yourself', 'No puede activar esta pulsera usted mismo'));
  }),
  bilingual('wristband-error-expired', async (page, say) => {
    await activate(page, say, refusal(408, wristbandTexts.expired));
    await alert(page, say('Activation attempt expired', 'El intento de activación venció'));
  }),
  bilingual('wristband-error-failed', async (page, say) => {
    await activate(page, say, refusal(500, 'Internal'));
    await alert(page, say('Unable to activate this wristband', 'No se pudo activar esta pulsera'));
  }),
  bilingual('wristband-error-network', async (page, say) => {
    await activate(page, say, (p) => p.route('**/api/wristband/activate/', (route) => route.abort('failed')));
    await alert(page, say('Error activating wristband', 'Error al activar la pulsera'));
  }),
  bilingual('wristband-active', async (page, say) => {
    await page.route('**/api/login/', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...((await response.json()) as object), isPassActivated: true } });
    });
    await wristbandReady(page, say);
    await page.getByTestId('wristband-active').getByText(say('Lost your wristband?', '¿Perdió su pulsera?')).waitFor();
  }),
  bilingual('wristband-redeemed', async (page, say) => {
    await wristbandReady(page, say, demo.redeemed);
    await page.getByTestId('wristband-notice').getByText(say('already been redeemed', 'ya se utilizó')).waitFor();
  }),
  bilingual('wristband-not-wristband', async (page, say) => {
    await wristbandReady(page, say, demo.passholder);
    await page.getByTestId('wristband-notice').getByText(say('is not for a wristband', 'no es para una pulsera')).waitFor();
  }),
];

// ---- The stored-value card ----

const CARD_PATH = `/stored-value/${'Q'.repeat(43)}`;

const card = (attractions: StoredValueResponse['attractions']): StoredValueResponse => ({
  barcode: demo.storedValue.barcode,
  credits: 1500,
  cash: 12.5,
  today: '2026-11-21',
  timeZone: 'America/Los_Angeles',
  attractions,
});

async function storedValue(page: Page, say: Say, answer: StoredValueResponse) {
  await page.route('**/api/stored-value/', (route) => route.fulfill({ json: answer }));
  await page.goto(CARD_PATH);
  await heading(page, say('Stored Value Card', 'Tarjeta de saldo'));
  await page.getByTestId('stored-value-credits').getByText(say('1,500 Credits', '1,500 créditos')).waitFor();
  await page.waitForFunction(() => document.querySelector('.stored-value__barcode svg'));
}

const storedValueStates: GuestState[] = [
  bilingual('stored-value-card', async (page, say) => {
    const visits = [
      { attraction: 'Giant Dipper', location: 'Beach Street', timestamp: '2026-11-21T18:05:00Z' },
      { attraction: 'Cave Train', location: 'Casino Arcade', timestamp: '2026-11-21T21:40:00Z' },
    ];
    await storedValue(page, say, card(visits));
    await page.getByRole('columnheader', { name: say('Attraction', 'Atracción') }).waitFor();
    await page.getByText(say('Saturday, November 21, 2026', 'sábado, 21 de noviembre de 2026')).waitFor();
  }),
  bilingual('stored-value-empty', async (page, say) => {
    await storedValue(page, say, card([]));
    await page.getByTestId('stored-value-empty').getByText(say('No attractions visited', 'Todavía no ha visitado')).waitFor();
  }),
  bilingual('stored-value-loading', async (page, say) => {
    await page.route('**/api/stored-value/', () => {
      // Never answered while the state is checked; the page is closed afterwards.
    });
    await page.goto(CARD_PATH);
    await page.getByRole('status').getByText(say('Loading your card…', 'Cargando su tarjeta…')).waitFor();
  }),
  bilingual('stored-value-error', async (page, say) => {
    await answerWithError(page, '/api/stored-value/', 503, 'The service is briefly unavailable.');
    await page.goto(CARD_PATH);
    await heading(page, say('Unable to retrieve ticket card data', 'No se pudieron obtener los datos de la tarjeta'));
    await page.getByRole('button', { name: say('Try Again', 'Intentar de nuevo') }).waitFor();
  }),
  bilingual('stored-value-not-found', async (page, say) => {
    await page.route('**/api/stored-value/', (route) =>
      route.fulfill({ status: 404, json: { statusCode: 404, error: 'ORDER_NOT_FOUND', message: 'Unable to locate order' } }),
    );
    await page.goto(CARD_PATH);
    await heading(page, say('Unable to retrieve ticket card data', 'No se pudieron obtener los datos de la tarjeta'));
    await page.getByRole('link', { name: say('Go to the home page', 'Ir a la página de inicio') }).waitFor();
  }),
];

// ---- The privacy request and the link's page ----

const AT = '2026-11-20T18:15:00.000Z';
const EMAIL = 'rosa.diaz@example.com';
const nobody = { firstName: null, lastName: null, email: null, phone: null };

/** What the link's page shows: one item of each kind. */
const personalData: PrivacyExport = {
  exportedAt: AT,
  query: { email: EMAIL },
  tickets: [
    {
      orderId: demo.storedValue.orderId,
      barcode: demo.storedValue.barcode,
      product: 'Stored Value Card',
      visitDate: null,
      expires: null,
      roles: ['purchaser', 'holder'],
      purchaser: null,
      holder: null,
      registration: null,
    },
  ],
  consents: [
    {
      barcode: demo.storedValue.barcode,
      channel: 'sms',
      given: false,
      at: AT,
      history: [
        { given: true, at: AT, source: 'registration', wording: 'Text me' },
        { given: false, at: AT, source: 'registration', wording: 'Text me' },
      ],
    },
  ],
  sharesMade: [
    {
      shareId: 'share-1',
      barcode: demo.storedValue.barcode,
      sharedWith: { ...nobody, firstName: 'Hana', lastName: 'Sato' },
      createdAt: AT,
      stoppedAt: null,
    },
  ],
  sharesReceived: [{ shareId: 'share-2', barcode: '2400000000000011', person: nobody, crmId: null, createdAt: AT, stoppedAt: AT }],
  photos: [{ barcode: '2400000000000011', width: 480, height: 360, uploadedAt: AT, png: '' }],
  passLocks: [],
  wristbands: [{ wristbandBarcode: BAND, barcode: demo.wristband.barcode, activatedAt: AT, deactivatedAt: null }],
  visitReservations: [
    {
      barcode: demo.reservations.barcode,
      startsAt: '2026-12-05T18:00:00.000Z',
      endsAt: '2026-12-05T20:00:00.000Z',
      status: 'booked',
      madeAt: AT,
    },
  ],
  loyalty: [
    {
      memberNumber: '700012',
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: EMAIL,
      phone: null,
      zip: null,
      seasonPassId: null,
      joinedAt: AT,
      balance: 1500,
      ledger: [{ points: 1500, kind: 'purchase', reason: 'Tickets', at: AT }],
      claims: [],
      redemptions: [],
    },
  ],
  hotelReservations: [
    {
      reservationNumber: 'H-4411',
      firstName: null,
      lastName: null,
      email: EMAIL,
      arrival: '2026-12-01',
      departure: '2026-12-03',
      cancelled: false,
    },
  ],
  mails: [{ to: EMAIL, subject: 'Your Brownie points', createdAt: AT, sentAt: AT }],
  wallet: [{ pass: 'member', barcode: null, appleDevices: 2, firstAddedAt: AT, lastAddedAt: AT, googleState: null, googleStateAt: null }],
};

const nothingHeld: PrivacyExport = {
  ...personalData,
  ...Object.fromEntries(Object.keys(personalData).map((key) => [key, []])),
  exportedAt: AT,
  query: { email: EMAIL },
};

/** The emailed link's page, its data answered by `answer`. */
async function openLink(page: Page, answer: (page: Page) => Promise<unknown>) {
  await answer(page);
  await page.goto('/privacy/manage#a-link-token');
}

const answerData = (doc: PrivacyExport) => (page: Page) => page.route('**/api/privacy/data', (route) => route.fulfill({ json: doc }));

async function personalDataShown(page: Page, say: Say) {
  await openLink(page, answerData(personalData));
  await heading(page, say('Your Data', 'Sus datos'));
  await page.getByRole('region', { name: say('Passes in your wallet', 'Pases en su billetera') }).waitFor();
}

async function deleteConfirm(page: Page, say: Say) {
  await personalDataShown(page, say);
  await page.getByRole('button', { name: say('Delete My Data', 'Eliminar mis datos') }).click();
  await page.getByRole('heading', { name: say('Delete Your Data?', '¿Eliminar sus datos?') }).waitFor();
  await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
}

/** The request form, an email typed and sent, the request answered by `answer`. */
async function requestLink(page: Page, say: Say, answer: (page: Page) => Promise<unknown>) {
  await answer(page);
  await page.goto('/privacy/');
  await heading(page, say('Your Data', 'Sus datos'));
  await page.getByRole('textbox').fill(EMAIL);
  await page.locator('form button[type="submit"]').click();
}

const privacyStates: GuestState[] = [
  bilingual('privacy-request', async (page, say) => {
    await page.goto('/privacy/');
    await heading(page, say('Your Data', 'Sus datos'));
    await page.getByText(say('about you (tickets,', 'sobre usted (boletos,')).waitFor();
  }),
  bilingual('privacy-request-sent', async (page, say) => {
    await requestLink(page, say, (p) =>
      p.route('**/api/privacy/request', (route) => route.fulfill({ status: 202, json: { email: EMAIL, validHours: 24 } })),
    );
    await page.getByRole('status').getByText(say('It works for 24 hours.', 'Funciona durante 24 horas.')).waitFor();
  }),
  bilingual('privacy-request-error', async (page, say) => {
    await requestLink(page, say, (p) => answerWithError(p, '/api/privacy/request', 500, 'Internal'));
    await alert(page, say('We could not send the link just now', 'No pudimos enviar el enlace en este momento'));
  }),
  bilingual('privacy-link-expired', async (page, say) => {
    await openLink(page, (p) => refuseLink(p, 'expired'));
    await page.getByText(say('This link has expired', 'Este enlace venció')).waitFor();
  }),
  bilingual('privacy-link-spent', async (page, say) => {
    await openLink(page, (p) => refuseLink(p, 'spent'));
    await page.getByText(say('This link was used to delete your data', 'Este enlace se usó para eliminar sus datos')).waitFor();
  }),
  bilingual('privacy-data-loading', async (page, say) => {
    await openLink(page, (p) =>
      p.route('**/api/privacy/data', () => {
        // Never answered while the state is checked; the page is closed afterwards.
      }),
    );
    await page.getByRole('status').getByText(say('Loading your data...', 'Cargando sus datos...')).waitFor();
  }),
  bilingual('privacy-data-error', async (page, say) => {
    await openLink(page, (p) => answerWithError(p, '/api/privacy/data', 500, 'Internal'));
    await alert(page, say('We could not load your data just now', 'No pudimos cargar sus datos en este momento'));
  }),
  bilingual('privacy-data', async (page, say) => {
    await personalDataShown(page, say);
    await page.getByText(say('Member 700012: 1,500 points, 1 entry', 'Socio 700012: 1,500 puntos, 1 movimiento')).waitFor();
    // Not anchored: the pseudo-language brackets each text.
    await page.getByText(new RegExp(`${demo.reservations.barcode}: .+, ${say('booked', 'reservada')}`)).waitFor();
  }),
  bilingual('privacy-data-nothing', async (page, say) => {
    await openLink(page, answerData(nothingHeld));
    await page
      .getByRole('status')
      .getByText(say('We hold nothing about this email.', 'No tenemos ningún dato sobre este correo.'))
      .waitFor();
  }),
  bilingual('privacy-delete-confirm', async (page, say) => {
    await deleteConfirm(page, say);
    await page.getByRole('button', { name: say('Keep My Data', 'Conservar mis datos') }).waitFor();
  }),
  bilingual('privacy-delete-error', async (page, say) => {
    await answerWithError(page, '/api/privacy/erase', 500, 'Internal');
    await deleteConfirm(page, say);
    await page.getByRole('button', { name: say('Yes, Delete', 'Sí, eliminar') }).click();
    await alert(page, say('We could not delete your data just now', 'No pudimos eliminar sus datos en este momento'));
  }),
  bilingual('privacy-deleted', async (page, say) => {
    await page.route('**/api/privacy/erase', (route) =>
      route.fulfill({ json: { held: true, erased: { tickets: 1 }, orderIds: [demo.storedValue.orderId] } }),
    );
    await deleteConfirm(page, say);
    await page.getByRole('button', { name: say('Yes, Delete', 'Sí, eliminar') }).click();
    await heading(page, say('Your Data Was Deleted', 'Se eliminaron sus datos'));
    await page.getByText(say(`under order ${demo.storedValue.orderId}`, `con el pedido ${demo.storedValue.orderId}`)).waitFor();
  }),
];

export const areaStates: GuestState[] = [...wristbandStates, ...storedValueStates, ...privacyStates];

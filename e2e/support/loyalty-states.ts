// Every state of the loyalty club's guest pages (/loyalty/: the sign-in and its code, joining,
// the home, the claims and their answers, the pass lookup, the member's card) and of the
// statement (/loyalty/statement), for the states test (e2e/guest/states.test.ts: axe and
// screenshots, in English and Spanish, English through the pseudo-language). The server's answers are
// the browser's (route mocks, in the contract's shapes and the server's own words): no code is
// mailed, no claim recorded, and a member is signed in by what the device keeps. The journeys
// against the server are loyalty.test.ts, loyalty-pass.test.ts and loyalty-statement.test.ts.
import type { Page } from 'playwright-core';
import type { ClaimResult, CheckCandidate } from '@boardwalk/contract/loyalty';
import {
  CLAIM_REFUSALS,
  CODE_REFUSALS,
  loyaltyEmailMessages,
  REFERRAL_REFUSALS,
  referralMessages,
  type ClaimRefusal,
  type CodeRefusal,
} from '@boardwalk/contract/loyalty';
import type { Statement, StatementEntry } from '@boardwalk/contract/loyalty-statement';
import { STATEMENT_REFUSALS, statementMessages, type StatementRefusal } from '@boardwalk/contract/loyalty-statement-messages';
import { WALLET_REFUSALS } from '@boardwalk/contract/wallet';
import { answerWithError, forThisState, USER_AGENTS, type GuestState } from './browser.ts';

type Language = 'en' | 'es';
/** A state's way in, in either language: `say` picks the words of the page's language. */
type Reach = (page: Page, say: (en: string, es: string) => string, language: Language) => Promise<void>;

const state = (name: string, reach: Reach): GuestState => ({
  name,
  open: (page) => reach(page, (en) => en, 'en'),
  spanish: (page) => reach(page, (_, es) => es, 'es'),
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
/** Waits for a text of the page (its words, also as part of a longer text: the pseudo-language brackets them). */
const text = (page: Page, words: string) => page.getByText(words).first().waitFor();
/** The page's live error region shows these words. */
const alert = (page: Page, words: string) => page.getByRole('alert').getByText(words, { exact: false }).waitFor();
const json = (page: Page, path: string, body: unknown) =>
  page.route(`**${path}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', json: body }));
/**
 * Types into a prerendered form until the page has taken it over (its button enabled): typed
 * before, the fields' values are not the page's. Then sends it.
 */
async function typeAndSend(page: Page, fields: [label: string, value: string][], button: string) {
  const submit = page.getByRole('button', { name: button });
  for (let tries = 0; tries < 100 && !(await submit.isEnabled()); tries++) {
    for (const [label, value] of fields) {
      await page.getByLabel(label).fill('');
      await page.getByLabel(label).fill(value);
    }
    if (!(await submit.isEnabled())) await page.waitForTimeout(100);
  }
  await submit.click();
}
const typeEmail = (page: Page, say: (en: string, es: string) => string, button: string) =>
  typeAndSend(page, [[say('Email', 'Correo'), EMAIL]], button);
/** Never answered while the state is checked; the page is closed afterwards. */
const hold = (page: Page, path: string) => page.route(`**${path}`, () => {});

const EMAIL = 'lia.park@example.com';

/** A member signed in on this device (their email proven): 1 may claim online, 0 claimed, -1 an account from before. */
async function signedIn(page: Page, allowedChanges = 1) {
  const script = await page.addInitScript(
    ([email, changes]) =>
      localStorage.setItem(
        'boardwalk.loyalty.member',
        JSON.stringify({ email, userID: 'claim-token', allowedChanges: changes, proven: true }),
      ),
    [EMAIL, allowedChanges] as const,
  );
  forThisState(page, script);
}

/** From /loyalty/ (or another address of it): the email, then the code step (the verify call answered here). */
async function codeStep(page: Page, say: (en: string, es: string) => string, address = '/loyalty/') {
  await json(page, '/api/loyalty/verify', { email: EMAIL, validMinutes: 15 });
  await page.goto(address);
  await heading(page, say('Brownie Points', 'Puntos Brownie'));
  await typeEmail(page, say, say('Continue', 'Continuar'));
  await heading(page, say('Check Your Email', 'Revise su correo'));
}

/** The code step with a code confirmed, which the server refuses (400) for a reason. */
async function confirmCode(page: Page, say: (en: string, es: string) => string, why: CodeRefusal) {
  await codeStep(page, say);
  await answerWithError(page, '/api/loyalty/confirm', 400, loyaltyEmailMessages[why], {}, { reason: CODE_REFUSALS[why] });
  await page.getByLabel(say('Code', 'Código')).fill('123456');
  await page.getByRole('button', { name: say('Confirm', 'Confirmar') }).click();
}

async function joinStep(page: Page, say: (en: string, es: string) => string, address = '/loyalty/') {
  await json(page, '/api/loyalty/confirm', { account: 'new', proof: 'proof-of-email' });
  await codeStep(page, say, address);
  await page.getByLabel(say('Code', 'Código')).fill('123456');
  await page.getByRole('button', { name: say('Confirm', 'Confirmar') }).click();
  await heading(page, say('Join Brownie Points', 'Únase a Puntos Brownie'));
}

const CLAIM_PAGES = {
  tickets: {
    en: ['In-Park Ticket Purchase', 'Order ID or Invoice Number'],
    es: ['Compra de boletos en el parque', 'Número de pedido o de factura'],
  },
  purchase: { en: ['Food & Beverage Purchase', 'Check Number'], es: ['Compra de alimentos y bebidas', 'Número de ticket'] },
  hotels: { en: ['Hotel Reservation', 'Reservation Number'], es: ['Reservación de hotel', 'Número de reservación'] },
} as const;

/** A signed-in member's claim form, filled and sent. */
async function claim(page: Page, language: Language, kind: keyof typeof CLAIM_PAGES, value: string) {
  const [title, label] = CLAIM_PAGES[kind][language];
  await signedIn(page);
  await page.goto(`/loyalty/${kind}`);
  await heading(page, title);
  await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: language === 'en' ? 'Submit' : 'Enviar' }).click();
}

/** A claim refused by the server (400) for a reason, with its English words: the page words the reason. */
const refusal = (why: ClaimRefusal | 'other', kind: keyof typeof CLAIM_PAGES, serverWords: string, en: string, es: string) =>
  state(`loyalty-claim-refused-${why.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`, async (page, say, language) => {
    // 'other': a 400 with no reason (a field the schema refused).
    const reason = why === 'other' ? {} : { reason: CLAIM_REFUSALS[why], ...(why === 'tooOld' && { params: { days: 90 } }) };
    await answerWithError(page, `/api/loyalty/${kind}/`, 400, serverWords, {}, reason);
    await claim(page, language, kind, '10000006');
    await alert(page, say(en, es));
  });

const claimResult: ClaimResult = { pointsEarned: 1250, balance: 15000, loyaltyOrders: [], allowedChanges: 0, walletToken: 'wallet-token' };
const candidates: CheckCandidate[] = [
  { checkID: 'check-1', ORDER_DATE: '2026-11-20T19:05:00-08:00', TERMINAL_ID: '12', IN_LOYALTY_ORDERS: false },
  { checkID: 'check-2', ORDER_DATE: '2026-11-21T12:40:00-08:00', TERMINAL_ID: '7', IN_LOYALTY_ORDERS: true },
];

const entry = (
  id: number,
  points: number,
  createdAt: string,
  about: Partial<StatementEntry> & Pick<StatementEntry, 'kind'>,
): StatementEntry => ({
  id,
  points,
  createdAt,
  purchase: null,
  reward: null,
  earnedAt: null,
  cause: null,
  note: null,
  campaign: null,
  ...about,
});
const statement: Statement = {
  firstName: 'Lia',
  lastName: 'Park',
  email: EMAIL,
  memberNumber: '4000123',
  balance: 15250,
  expiringPoints: 250,
  expiringAt: '2026-12-09T08:00:00.000Z',
  tier: { name: 'Bronze', pointsToReach: 500 },
  pointsEarned: 1600,
  nextTier: { name: 'Silver', pointsToReach: 2500 },
  ledger: {
    entries: [
      entry(10, -200, '2026-11-24T08:05:00.000Z', { kind: 'bonus-reversal', campaign: 'Visit 3 Days' }),
      entry(9, 100, '2026-11-23T08:05:00.000Z', { kind: 'bonus', campaign: 'Birthday Treat' }),
      entry(8, -40, '2026-11-22T18:00:00.000Z', {
        kind: 'bonus-reversal',
        cause: 'refunded',
        campaign: 'Double Points Weekend',
        purchase: { type: 'food-and-beverage', product: 'Lunch', reference: 'CHK-12' },
      }),
      entry(7, 1250, '2026-11-21T18:00:00.000Z', {
        kind: 'bonus',
        campaign: 'Double Points Weekend',
        purchase: { type: 'ticket', product: 'Day Ticket', reference: '10000001' },
      }),
      entry(6, 1250, '2026-11-21T18:00:00.000Z', {
        kind: 'earn',
        purchase: { type: 'ticket', product: 'Day Ticket', reference: '10000001' },
      }),
      entry(5, -500, '2026-11-10T18:00:00.000Z', { kind: 'redemption', reward: 'Free Soda' }),
      entry(4, -40, '2026-11-02T18:00:00.000Z', {
        kind: 'reversal',
        cause: 'refunded',
        purchase: { type: 'food-and-beverage', product: 'Lunch', reference: 'CHK-12' },
      }),
      entry(3, -25, '2026-10-20T18:00:00.000Z', { kind: 'expired', earnedAt: '2025-10-20T18:00:00.000Z' }),
      entry(2, 500, '2026-10-12T18:00:00.000Z', { kind: 'redemption-reversal', reward: 'Free Soda' }),
      entry(1, 1, '2026-10-02T18:00:00.000Z', { kind: 'adjustment', note: 'Goodwill' }),
    ],
    nextBefore: 1,
  },
  rewards: [
    {
      rewardId: '0b7f3b52-6d1c-4a53-9a3e-1f6d2b9c0a11',
      name: 'Free Soda',
      description: 'Any fountain drink',
      pointsCost: 500,
      redeemableNow: true,
    },
    { rewardId: '0b7f3b52-6d1c-4a53-9a3e-1f6d2b9c0a12', name: 'Family Dinner', description: null, pointsCost: 50000, redeemableNow: false },
  ],
  walletToken: 'wallet-token',
  referral: {
    link: 'http://127.0.0.1/loyalty/?ref=3F9A1C07B2',
    referred: [
      { firstName: 'Omar', joinedAt: '2026-11-20T18:00:00.000Z', earned: false },
      { firstName: 'Nia', joinedAt: '2026-11-12T18:00:00.000Z', earned: true },
    ],
  },
  challenges: [
    { name: 'Visit 3 Days', goal: 'days', goalCount: 3, progress: 2, bonusPoints: 300, completed: false, validTo: '2026-12-31' },
    { name: 'Two Hotel Nights', goal: 'nights', goalCount: 2, progress: 2, bonusPoints: 500, completed: true, validTo: '2026-12-15' },
  ],
};
const emptyStatement: Statement = {
  ...statement,
  balance: 0,
  expiringPoints: 0,
  expiringAt: null,
  tier: null,
  pointsEarned: 0,
  nextTier: { name: 'Bronze', pointsToReach: 500 },
  ledger: { entries: [], nextBefore: null },
  rewards: [],
  referral: { link: 'http://127.0.0.1/loyalty/?ref=3F9A1C07B2', referred: [] },
  challenges: [],
};

/** The statement from its link, the statement call answered with `answer`. */
async function openStatement(page: Page, answer: Statement) {
  await json(page, '/api/loyalty/statement', answer);
  await page.goto('/loyalty/statement#statement-token');
}

/** The statement's link refused (401) for a reason: the request form says why. */
const linkRefused = (why: StatementRefusal, en: string, es: string) =>
  state(`statement-refused-${why}`, async (page, say) => {
    await answerWithError(page, '/api/loyalty/statement', 401, statementMessages[why], {}, { reason: STATEMENT_REFUSALS[why] });
    await page.goto('/loyalty/statement#statement-token');
    await page.getByTestId('statement-link-refused').getByText(say(en, es)).waitFor();
    await page.getByRole('button', { name: say('Email Me a Link', 'Enviarme un enlace') }).waitFor();
  });

export const loyaltyStates: GuestState[] = [
  state('loyalty-sign-in', async (page, say) => {
    await page.goto('/loyalty/');
    await heading(page, say('Brownie Points', 'Puntos Brownie'));
    await page.getByRole('link', { name: say('See my points', 'Ver mis puntos') }).waitFor();
    await page.getByLabel(say('Email', 'Correo')).fill(EMAIL);
    await page.getByRole('button', { name: say('Continue', 'Continuar') }).waitFor({ state: 'visible' });
  }),
  state('loyalty-sign-in-error', async (page, say) => {
    await answerWithError(page, '/api/loyalty/verify', 500, 'Internal Server Error');
    await page.goto('/loyalty/');
    await typeEmail(page, say, say('Continue', 'Continuar'));
    await alert(page, say('Unable to submit, please try again later.', 'No se pudo enviar. Intente de nuevo más tarde.'));
  }),
  state('loyalty-code', async (page, say) => {
    await codeStep(page, say);
    await text(page, say('6 digits, from our email', '6 dígitos, de nuestro correo'));
    await page.getByText(say('It works for 15 minutes.', 'Es válido por 15 minutos.'), { exact: false }).waitFor();
  }),
  state('loyalty-code-wrong', async (page, say) => {
    await confirmCode(page, say, 'wrongCode');
    await alert(page, say(loyaltyEmailMessages.wrongCode, 'Este código no es correcto.'));
  }),
  state('loyalty-code-expired', async (page, say) => {
    await confirmCode(page, say, 'expired');
    await alert(page, say(loyaltyEmailMessages.expired, 'Este código venció o se intentó demasiadas veces.'));
  }),
  state('loyalty-code-throttled', async (page, say) => {
    await codeStep(page, say);
    await answerWithError(page, '/api/loyalty/confirm', 429, 'Too many attempts. Please wait a few minutes and try again.');
    await page.getByLabel(say('Code', 'Código')).fill('123456');
    await page.getByRole('button', { name: say('Confirm', 'Confirmar') }).click();
    await alert(page, say('Too many attempts.', 'Demasiados intentos.'));
  }),
  state('loyalty-code-resent', async (page, say) => {
    await codeStep(page, say);
    await page.getByRole('button', { name: say('Send a New Code', 'Enviar un código nuevo') }).click();
    await text(
      page,
      say('We sent you a new code. Only the newest code works.', 'Le enviamos un código nuevo. Solo funciona el más reciente.'),
    );
  }),
  state('loyalty-join', async (page, say) => {
    await joinStep(page, say);
    await page.getByLabel(say('First Name', 'Nombre')).waitFor();
    await page.getByRole('button', { name: say('Start Over', 'Empezar de nuevo') }).waitFor();
  }),
  state('loyalty-join-birthday', async (page, say) => {
    await joinStep(page, say);
    await page.getByLabel(say('First Name', 'Nombre')).fill('Lia');
    await page.getByLabel(say('Last Name', 'Apellido')).fill('Park');
    // A month without its day holds the button back; Feb 29 is a birthday.
    await page.getByLabel(say('Month', 'Mes')).selectOption('2');
    const submit = page.getByRole('button', { name: say('Submit', 'Enviar') });
    if (!(await submit.isDisabled())) throw new Error('Submit is enabled with a month and no day');
    await page.getByLabel(say('Day', 'Día')).selectOption('29');
    await page.getByRole('option', { name: say('February', 'febrero'), selected: true }).waitFor({ state: 'attached' });
    await text(
      page,
      say('On your birthday we add a gift of points to your account.', 'En su cumpleaños le regalamos puntos en su cuenta.'),
    );
    if (await submit.isDisabled()) throw new Error('Submit is disabled with a birthday chosen');
  }),
  state('loyalty-join-referred', async (page, say) => {
    await joinStep(page, say, '/loyalty/?ref=3F9A1C07B2');
    await text(
      page,
      say(
        'A member invited you: when you add your first purchase, you both earn bonus points.',
        'Un socio lo invitó: cuando agregue su primera compra, ambos ganan puntos de bonificación.',
      ),
    );
  }),
  state('loyalty-join-referral-refused', async (page, say) => {
    await joinStep(page, say, '/loyalty/?ref=3F9A1C07B2');
    await answerWithError(page, '/api/loyalty/create', 400, referralMessages.self, {}, { reason: REFERRAL_REFUSALS.self });
    await page.getByLabel(say('First Name', 'Nombre')).fill('Lia');
    await page.getByLabel(say('Last Name', 'Apellido')).fill('Park');
    await page.getByRole('button', { name: say('Submit', 'Enviar') }).click();
    await alert(page, say('You cannot use your own invitation link.', 'No puede usar su propio enlace de invitación.'));
    await page.getByRole('button', { name: say('Join Without the Invitation', 'Unirse sin la invitación') }).waitFor();
  }),
  state('loyalty-join-conflict', async (page, say) => {
    await joinStep(page, say);
    await answerWithError(page, '/api/loyalty/create', 409, 'A loyalty account already uses this email');
    await page.getByLabel(say('First Name', 'Nombre')).fill('Lia');
    await page.getByLabel(say('Last Name', 'Apellido')).fill('Park');
    await page.getByRole('button', { name: say('Submit', 'Enviar') }).click();
    await text(
      page,
      say('Unable to create your profile, please try again later...', 'No se pudo crear su perfil. Intente de nuevo más tarde...'),
    );
  }),
  state('loyalty-signed-in', async (page, say) => {
    await signedIn(page);
    await page.goto('/loyalty/');
    await page.getByRole('link', { name: say('Hotel Reservation', 'Reservación de hotel') }).waitFor();
    await page.getByRole('button', { name: say('Log Out', 'Cerrar sesión') }).waitFor();
  }),
  state('loyalty-claim-form', async (page, say) => {
    await signedIn(page);
    await page.goto('/loyalty/tickets');
    await heading(page, say('In-Park Ticket Purchase', 'Compra de boletos en el parque'));
    await page.getByRole('button', { name: say('Scan Barcode', 'Escanear código') }).waitFor();
  }),
  state('loyalty-claim-hotel-form', async (page, say) => {
    await signedIn(page);
    await page.goto('/loyalty/hotels');
    await heading(page, say('Hotel Reservation', 'Reservación de hotel'));
    await text(page, say('From your reservation confirmation', 'De la confirmación de su reservación'));
  }),
  state('loyalty-claim-scanner', async (page, say) => {
    // No camera in this browser: the scanner shows its title and hint, the camera's failure is only logged.
    const script = await page.addInitScript(() => {
      Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: () => new Promise(() => {}) } });
    });
    forThisState(page, script);
    await signedIn(page);
    await page.goto('/loyalty/purchase');
    await page.getByRole('button', { name: say('Scan Barcode', 'Escanear código') }).click();
    await page.getByRole('dialog', { name: say('Scan your check number', 'Escanee el número de su ticket') }).waitFor();
    await page.getByRole('button', { name: say('Close', 'Cerrar') }).waitFor();
  }),
  state('loyalty-claim-busy', async (page, say, language) => {
    await hold(page, '/api/loyalty/tickets/');
    await claim(page, language, 'tickets', '10000001');
    await page.getByRole('button', { name: say('Submitting your info...', 'Enviando sus datos...') }).waitFor();
  }),
  state('loyalty-claim-earned', async (page, say, language) => {
    await json(page, '/api/loyalty/tickets/', claimResult);
    await claim(page, language, 'tickets', '10000001');
    await heading(page, say("You've Earned some Brownie Points!", '¡Ganó puntos Brownie!'));
    await text(page, say('+1,250 Brownie points', '+1,250 puntos Brownie'));
    await page
      .getByText(say('Your balance is now 15,000 Brownie points.', 'Su saldo ahora es de 15,000 puntos Brownie.'), { exact: false })
      .waitFor();
  }),
  state('loyalty-claim-candidates', async (page, say, language) => {
    await json(page, '/api/loyalty/purchase/', candidates);
    await claim(page, language, 'purchase', '4012');
    await text(page, say('Several checks have this number. Which one is yours?', 'Varios tickets tienen este número. ¿Cuál es el suyo?'));
    await page.getByRole('button', { name: say('Added', 'Agregado') }).waitFor();
  }),
  state('loyalty-claim-failed', async (page, say, language) => {
    await answerWithError(page, '/api/loyalty/hotels/', 500, 'Internal Server Error');
    await claim(page, language, 'hotels', 'H0000000');
    await alert(page, say('Unable to submit, please try again later.', 'No se pudo enviar. Intente de nuevo más tarde.'));
  }),
  refusal(
    'unknownAccount',
    'tickets',
    'We could not find that loyalty account. Please start over.',
    'We could not find that loyalty account.',
    'No encontramos esa cuenta de socio.',
  ),
  refusal(
    'emailMismatch',
    'tickets',
    'That email does not match this loyalty account. Please start over.',
    'That email does not match',
    'Ese correo no corresponde a esta cuenta de socio.',
  ),
  refusal(
    'notPublic',
    'tickets',
    'This account can no longer add purchases online. Please email help@example.com with your membership ID and your order, check or reservation number.',
    'This account can no longer add purchases online.',
    'Esta cuenta ya no puede agregar compras en línea.',
  ),
  refusal(
    'alreadyClaimedOnline',
    'tickets',
    'This account has already added a purchase online. Please email help@example.com with your membership ID to add more.',
    'This account has already added a purchase online.',
    'Esta cuenta ya agregó una compra en línea.',
  ),
  refusal(
    'notYours',
    'tickets',
    'This purchase is not under your email address. Guest Services can add it for you.',
    'This purchase is not under your email address.',
    'Esta compra no está a nombre de su correo.',
  ),
  refusal(
    'scanReceipt',
    'purchase',
    'Scan the barcode on your receipt.',
    'Scan the barcode on your receipt.',
    'Escanee el código de barras de su recibo.',
  ),
  refusal('unknownOrder', 'tickets', 'We could not find that order.', 'We could not find that order.', 'No encontramos ese pedido.'),
  refusal('unknownCheck', 'purchase', 'We could not find that check.', 'We could not find that check.', 'No encontramos ese ticket.'),
  refusal(
    'unknownReservation',
    'hotels',
    'We could not find that reservation.',
    'We could not find that reservation.',
    'No encontramos esa reservación.',
  ),
  refusal(
    'refunded',
    'tickets',
    'This purchase was refunded and cannot earn points.',
    'This purchase was refunded',
    'Esta compra fue reembolsada',
  ),
  refusal(
    'cancelled',
    'hotels',
    'This reservation was cancelled and cannot earn points.',
    'This reservation was cancelled',
    'Esta reservación fue cancelada',
  ),
  refusal(
    'tooOld',
    'tickets',
    'This purchase is more than 90 days old and can no longer earn points.',
    'This purchase is more than 90 days old and can no longer earn points.',
    'Esta compra tiene más de 90 días y ya no puede ganar puntos.',
  ),
  refusal(
    'claimed',
    'tickets',
    'This purchase has already been claimed.',
    'This purchase has already been claimed.',
    'Esta compra ya se agregó.',
  ),
  refusal(
    'nothingToEarn',
    'purchase',
    'This purchase has no amount that earns points.',
    'This purchase has no amount that earns points.',
    'Esta compra no tiene un monto que gane puntos.',
  ),
  refusal(
    'other',
    'tickets',
    '(body): orderId: Order ID must be 8 digits',
    'This purchase could not be added.',
    'No se pudo agregar esta compra.',
  ),
  state('loyalty-claim-existing-account', async (page, say) => {
    await signedIn(page, -1);
    await page.goto('/loyalty/hotels');
    await page.getByText(say('You already have a loyalty account.', 'Usted ya tiene una cuenta de socio.'), { exact: false }).waitFor();
    await page.getByText(say('Membership ID:', 'Número de socio:'), { exact: false }).waitFor();
  }),
  state('loyalty-claim-already-claimed', async (page, say) => {
    await signedIn(page, 0);
    await page.goto('/loyalty/tickets');
    await page
      .getByText(say("You've already added a purchase online.", 'Usted ya agregó una compra en línea.'), { exact: false })
      .waitFor();
  }),
  state('loyalty-find-pass', async (page, say) => {
    await page.goto('/loyalty/passes');
    await heading(page, say('Add to Your Digital Wallet', 'Agregar a su billetera digital'));
    await page.getByRole('button', { name: say('Find My Pass', 'Buscar mi pase') }).waitFor();
  }),
  state('loyalty-find-pass-not-found', async (page, say) => {
    await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
    await page.goto('/loyalty/passes');
    await heading(page, say('Add to Your Digital Wallet', 'Agregar a su billetera digital'));
    await typeAndSend(
      page,
      [
        [say('Order ID', 'Número de pedido'), '10000099'],
        [say('Barcode', 'Código de barras'), '1000000000000999'],
      ],
      say('Find My Pass', 'Buscar mi pase'),
    );
    await alert(page, say('Unable to locate order', 'No se encontró el pedido'));
  }),
  state('loyalty-card', async (page, say) => {
    await page.goto(`/loyalty/pass#email=${encodeURIComponent(EMAIL)}&token=wallet-token`);
    await heading(page, say('Your Brownie Points Card', 'Su tarjeta de socio de Puntos Brownie'));
    await page.getByText(say('to your digital wallet', 'a su billetera digital'), { exact: false }).first().waitFor();
  }),
  {
    // An iPhone (the Apple button), a link past its time: the answer's reason, worded by the page.
    ...state('loyalty-card-link-expired', async (page, say) => {
      await answerWithError(page, '/api/apple-wallet/', 401, 'Refused', {}, { reason: WALLET_REFUSALS.linkExpired });
      await page.goto(`/loyalty/pass#email=${encodeURIComponent(EMAIL)}&token=wallet-token`);
      await heading(page, say('Your Brownie Points Card', 'Su tarjeta de socio de Puntos Brownie'));
      await page.locator('button.wallet-badge--apple').click();
      await alert(page, say('This pass link has expired.', 'Este enlace del pase venció.'));
    }),
    userAgent: USER_AGENTS.iPhone,
  },
  state('loyalty-card-incomplete', async (page, say) => {
    await page.goto('/loyalty/pass');
    await page
      .getByTestId('pass-link-incomplete')
      .getByText(say('This link is not complete.', 'Este enlace no está completo.'), { exact: false })
      .waitFor();
  }),
  state('statement-ask-link', async (page, say) => {
    await page.goto('/loyalty/statement');
    await heading(page, say('My Points', 'Mis puntos'));
    await page.getByRole('button', { name: say('Email Me a Link', 'Enviarme un enlace') }).waitFor();
  }),
  state('statement-sent', async (page, say) => {
    await json(page, '/api/loyalty/statement-link', { email: EMAIL, validHours: 24 });
    await page.goto('/loyalty/statement');
    await typeEmail(page, say, say('Email Me a Link', 'Enviarme un enlace'));
    await heading(page, say('Check Your Email', 'Revise su correo'));
    await page.getByText(say('It works for 24 hours.', 'Es válido por 24 horas.'), { exact: false }).waitFor();
  }),
  state('statement-request-error', async (page, say) => {
    await answerWithError(page, '/api/loyalty/statement-link', 503, 'Service Unavailable');
    await page.goto('/loyalty/statement');
    await typeEmail(page, say, say('Email Me a Link', 'Enviarme un enlace'));
    await alert(page, say('Unable to submit, please try again later.', 'No se pudo enviar. Intente de nuevo más tarde.'));
  }),
  linkRefused('expired', 'This link has expired', 'Este enlace venció'),
  linkRefused('invalid', 'This link is not valid', 'Este enlace no es válido'),
  linkRefused(
    'unproven',
    'Confirm your email on the Brownie Points page first',
    'Primero confirme su correo en la página de Puntos Brownie',
  ),
  state('statement-loading', async (page, say) => {
    await hold(page, '/api/loyalty/statement');
    await page.goto('/loyalty/statement#statement-token');
    await page
      .getByRole('status')
      .filter({ hasText: say('Loading your points...', 'Cargando sus puntos...') })
      .waitFor();
  }),
  state('statement-error', async (page, say) => {
    await answerWithError(page, '/api/loyalty/statement', 500, 'Internal Server Error');
    await page.goto('/loyalty/statement#statement-token');
    await alert(page, say('We could not load your points just now.', 'Por ahora no pudimos cargar sus puntos.'));
    await page.getByRole('button', { name: say('Try Again', 'Intentar de nuevo') }).waitFor();
  }),
  state('statement', async (page, say, language) => {
    await openStatement(page, statement);
    await text(page, say('15,250 points', '15,250 puntos'));
    await page.getByRole('heading', { name: say('Tier: Bronze', 'Nivel: Bronze') }).waitFor();
    await page
      .getByText(
        say('earned in the last 365 days: 900 more points to reach', 'En los últimos 365 días ganó 1,600 puntos: le faltan 900 puntos'),
        { exact: false },
      )
      .waitFor();
    await page.getByTestId('statement-expiring').getByText(say('250 points', '250 puntos')).waitFor();
    await text(page, say('Redeemable now', 'Canjeable ahora'));
    await text(page, '+1,250');
    // Each entry worded by the page from its kind (nested messages: the pseudo-language brackets each part).
    await text(page, say('Redemption reversed: Free Soda', 'Canje anulado: Free Soda'));
    await text(page, say('Adjusted by guest services: Goodwill', 'Ajuste de Atención al Visitante: Goodwill'));
    // A campaign's bonus on a purchase, taken back with it, and a birthday's gift (the campaign's name as staff wrote it).
    await text(page, say('Bonus: Birthday Treat', 'Bonificación: Birthday Treat'));
    // A challenge's bonus taken back (a purchase it counted was reversed).
    await text(
      page,
      say('Bonus taken back, Visit 3 Days: goal no longer met', 'Bonificación descontada, Visit 3 Days: meta ya no cumplida'),
    );
    // The challenges: progress toward the goal (a progress bar named by the challenge), and one complete.
    await page.getByRole('heading', { name: say('Challenges', 'Retos') }).waitFor();
    await page.getByRole('progressbar', { name: 'Visit 3 Days' }).waitFor();
    await text(page, say('2 of 3 days visited', '2 de 3 días visitados'));
    await text(
      page,
      say('Complete it by Dec 31, 2026 to earn 300 points.', 'Complételo a más tardar el 31 dic 2026 para ganar 300 puntos.'),
    );
    await text(page, say('2 of 2 hotel nights stayed', '2 de 2 noches de hotel'));
    await text(page, say('Complete: 500 points earned.', 'Completado: 500 puntos ganados.'));
    // The referral link and who joined with it.
    await page.getByRole('heading', { name: say('Invite Friends', 'Invite a sus amigos') }).waitFor();
    await text(page, say('Nia, joined', 'Nia, se unió el'));
    await text(page, say('waiting for their first purchase', 'esperando su primera compra'));
    if (language === 'es') {
      await text(page, 'Bonificación, Double Points Weekend: Day Ticket, pedido 10000001');
      await text(page, 'Bonificación descontada (reembolso), Double Points Weekend: Lunch, ticket CHK-12');
      await text(page, 'Ganados: Day Ticket, pedido 10000001');
      await text(page, 'Descontados (reembolso): Lunch, ticket CHK-12');
      await text(page, 'Vencidos: puntos ganados el');
    }
    await page.getByRole('button', { name: say('Show More', 'Ver más') }).waitFor();
  }),
  state('statement-more-error', async (page, say) => {
    await answerWithError(page, '/api/loyalty/statement/ledger?before=1', 500, 'Internal Server Error');
    await openStatement(page, statement);
    await page.getByRole('button', { name: say('Show More', 'Ver más') }).click();
    await alert(page, say('We could not load your points just now.', 'Por ahora no pudimos cargar sus puntos.'));
  }),
  state('statement-empty', async (page, say) => {
    await openStatement(page, emptyStatement);
    await text(page, say('0 points', '0 puntos'));
    await page.getByRole('heading', { name: say('Tier: none yet', 'Nivel: todavía ninguno') }).waitFor();
    await text(page, say('No rewards are offered right now.', 'Por ahora no hay recompensas disponibles.'));
    await text(page, say('No one has joined with your link yet.', 'Nadie se ha unido con su enlace todavía.'));
    await page.getByRole('link', { name: say('Add a purchase', 'Agregue una compra') }).waitFor();
  }),
  state('statement-negative', async (page, say) => {
    await openStatement(page, {
      ...statement,
      balance: -120,
      expiringPoints: 0,
      expiringAt: null,
      rewards: statement.rewards.map((reward) => ({ ...reward, redeemableNow: false })),
    });
    await text(page, say('−120 points', '−120 puntos'));
    await page.getByText(say('Your balance is below zero', 'Su saldo es negativo'), { exact: false }).waitFor();
  }),
  state('statement-top-tier', async (page, say) => {
    await openStatement(page, {
      ...statement,
      balance: 1,
      expiringPoints: 1,
      tier: { name: 'Gold', pointsToReach: 5000 },
      pointsEarned: 6000,
      nextTier: null,
    });
    await text(page, say('1 point', '1 punto'));
    await page.getByText(say('you have reached our highest tier.', 'ya alcanzó nuestro nivel más alto.'), { exact: false }).waitFor();
  }),
];

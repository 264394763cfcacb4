// The photo section's steps (choose, crop, preview, on the pass), reached the way a
// guest reaches them; shared by photo.test.ts and, through guest-states.ts, by the states
// test (e2e/guest/states.test.ts: axe and screenshots). None of these states stores or removes a photo: a
// stored photo or an activated pass is the demo passholder's lookup answered as such, with
// the photo itself answered by the browser.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { bilingual, type Say } from './area-states.ts';
import { answerWithError, demo, openPass, passCard, type GuestState } from './browser.ts';
import { fileOfSize, noFace, oneFace, photograph, twoFaces, type TestFile } from './photographs.ts';

/** The second passholder of demo order 10000001 (Mateo Lopez): photo.test.ts uploads to it. */
export const secondPassholder = { orderId: '10000001', barcode: '2400000000000028' } as const;

/** The English words (photo.test.ts reaches the steps in English). */
const english: Say = (words) => words;

export const photoSection = (page: Page) => page.locator('section.photo-section');

/** The photo section of this ticket's pass; with `say`, reached by the pass's address in the page's language. */
export async function openPhotoSection(page: Page, login: { orderId: string; barcode: string } = demo.passholder, say?: Say) {
  if (say) await page.goto(`/${login.orderId}/${login.barcode}`);
  else await openPass(page, login.orderId, login.barcode);
  await passCard(page).waitFor();
  await photoSection(page).waitFor();
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
}

/**
 * Chooses the file. Playwright sends its bytes to Chromium in base64: a 5 MB file took more than
 * the page's 10 s under a full test run's load (CI, 2026-11-26, through the shared Chromium's
 * relay then).
 */
export async function choosePhoto(page: Page, file: TestFile, say: Say = english) {
  await page
    .getByLabel(say('Choose a photo', 'Elegir una foto'))
    .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer }, { timeout: 30_000 });
}

/**
 * Waits for the crop step. It opens once the file is read and the crop's code chunk loaded: a
 * 5 MB file took more than the page's 10 s under a full test run's load.
 */
export async function waitForCropStep(page: Page, say: Say = english) {
  await page.getByRole('heading', { level: 3, name: say('Crop Your Photo', 'Recorte su foto') }).waitFor({ timeout: 30_000 });
}

/** Waits for the crop step with the face check done (face-api loaded and run). */
export async function waitForFaceCheck(page: Page, say: Say = english) {
  await waitForCropStep(page, say);
  // face-api runs its model in the page: on a busy machine that takes more than the page's 10 s.
  await page.locator('.ReactCrop__crop-selection').waitFor({ timeout: 45_000 });
  await page.getByText(say('Checking your photo…', 'Revisando su foto…')).waitFor({ state: 'detached', timeout: 45_000 });
}

export async function cropPhoto(page: Page, file: TestFile, say: Say = english) {
  await choosePhoto(page, file, say);
  await waitForFaceCheck(page, say);
}

export async function previewPhoto(page: Page, file: TestFile, say: Say = english) {
  await cropPhoto(page, file, say);
  await page.getByRole('button', { name: say('Preview', 'Vista previa') }).click();
  await page.getByRole('heading', { level: 3, name: say('Does your photo appear correct?', '¿Su foto se ve bien?') }).waitFor();
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
}

/** A 480 x 360 PNG of the astronaut's head and shoulders, as the server would store it. */
export async function storedPhotoPng(): Promise<Buffer> {
  return sharp(photograph('astronaut.png')).extract({ left: 64, top: 0, width: 384, height: 288 }).resize(480, 360).png().toBuffer();
}

/**
 * Answers this page's lookups as if the ticket had a stored photo (and, if asked, an
 * activated pass), and the photo download with a real photograph.
 */
export async function answerWithStoredPhoto(page: Page, { activated = false } = {}) {
  const png = await storedPhotoPng();
  await page.route('**/api/download/*/photo.png', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: png }));
  await page.route('**/api/login/', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({
      response,
      json: { ...json, photoUid: 'stored-photo-in-this-test', ...(activated && { isPassActivated: true }) },
    });
  });
}

const faceMessage = (page: Page, text: string) => page.getByTestId('face-message').getByText(text).waitFor();
const alert = (page: Page, text: string) => page.getByRole('alert').getByText(text).waitFor();

export const photoStates: GuestState[] = [
  bilingual('photo-choose', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await page.getByText(say('JPG, PNG or GIF files are accepted', 'Se aceptan archivos JPG, PNG o GIF')).waitFor();
  }),
  bilingual('photo-crop-one-face', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await cropPhoto(page, await oneFace(), say);
  }),
  bilingual('photo-crop-no-face', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await cropPhoto(page, await noFace(), say);
    await faceMessage(page, say('A face was not detected in this image', 'No se detectó ninguna cara en esta imagen'));
  }),
  bilingual('photo-crop-several-faces', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await cropPhoto(page, await twoFaces(), say);
    await faceMessage(page, say('Multiple faces have been detected.', 'Se detectó más de una cara.'));
  }),
  bilingual('photo-file-too-large', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await choosePhoto(page, await fileOfSize(5242880), say);
    await alert(page, say('File size is too large', 'El archivo es demasiado grande'));
  }),
  bilingual('photo-preview-error', async (page, say) => {
    await answerWithError(page, '/api/preview/', 400, 'Unable to preview photo');
    await openPhotoSection(page, demo.passholder, say);
    await cropPhoto(page, await oneFace(), say);
    await page.getByRole('button', { name: say('Preview', 'Vista previa') }).click();
    await alert(page, say('Unable to preview photo', 'No se pudo mostrar la vista previa de la foto'));
  }),
  bilingual('photo-confirm', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await previewPhoto(page, await oneFace(), say);
  }),
  bilingual('photo-upload-error', async (page, say) => {
    await openPhotoSection(page, demo.passholder, say);
    await previewPhoto(page, await oneFace(), say);
    await page.route('**/api/upload/', (route) => route.abort('failed'));
    await page.getByRole('button', { name: say('Upload', 'Subir') }).click();
    await alert(page, say('Network error, please try again', 'Error de red. Intente de nuevo.'));
  }),
  bilingual('photo-on-card', async (page, say) => {
    await answerWithStoredPhoto(page);
    await openPhotoSection(page, demo.passholder, say);
    await page.getByText(say('Your photo is on your pass.', 'Su foto está en su pase.')).waitFor();
  }),
  bilingual('photo-replace-confirm', async (page, say) => {
    await answerWithStoredPhoto(page);
    await openPhotoSection(page, demo.passholder, say);
    await page.getByRole('button', { name: say('Replace Photo', 'Cambiar foto') }).click();
    await page
      .getByText(say('Are you sure you want to replace your current photo?', '¿Seguro que desea cambiar su foto actual?'))
      .waitFor();
  }),
  bilingual('photo-replace-error', async (page, say) => {
    await answerWithStoredPhoto(page);
    await answerWithError(page, '/api/replace-photo/**', 404, 'Unable to replace photo');
    await openPhotoSection(page, demo.passholder, say);
    await page.getByRole('button', { name: say('Replace Photo', 'Cambiar foto') }).click();
    await page.getByRole('button', { name: say('Yes, Replace Photo', 'Sí, cambiar la foto') }).click();
    await alert(page, say('Unable to replace photo', 'No se pudo cambiar la foto'));
  }),
  bilingual('photo-request-confirm', async (page, say) => {
    await answerWithStoredPhoto(page, { activated: true });
    await openPhotoSection(page, demo.passholder, say);
    await page.getByRole('button', { name: say('Replace Photo Request', 'Solicitar cambio de foto') }).click();
    await page.getByText(say('can take up to 48 hours', 'puede tardar hasta 48 horas')).waitFor();
  }),
  bilingual('photo-request-error', async (page, say) => {
    await answerWithStoredPhoto(page, { activated: true });
    await answerWithError(page, '/api/reset-photo/**', 409, 'Unable to request a photo replacement');
    await openPhotoSection(page, demo.passholder, say);
    await page.getByRole('button', { name: say('Replace Photo Request', 'Solicitar cambio de foto') }).click();
    await page.getByRole('button', { name: say('Send Request', 'Enviar solicitud') }).click();
    await alert(page, say('Unable to request a photo replacement', 'No se pudo solicitar el cambio de foto'));
  }),
  bilingual('photo-request-sent', async (page, say) => {
    await answerWithStoredPhoto(page, { activated: true });
    await page.route('**/api/reset-photo/**', (route) =>
      route.fulfill({ contentType: 'text/plain', body: 'Your request has been received.' }),
    );
    await openPhotoSection(page, demo.passholder, say);
    await page.getByRole('button', { name: say('Replace Photo Request', 'Solicitar cambio de foto') }).click();
    await page.getByRole('button', { name: say('Send Request', 'Enviar solicitud') }).click();
    await page.getByRole('status').getByText(say('Your request has been received.', 'Recibimos su solicitud.')).waitFor();
  }),
  bilingual('photo-pass-locked', async (page, say) => {
    await page.route('**/api/login/', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...((await response.json()) as object), isPassActivated: true, passLocked: true } });
    });
    await openPhotoSection(page, demo.passholder, say);
    await page
      .getByRole('status')
      .getByText(say('Visit Guest Services to put a new photo', 'Visite Atención al Visitante para poner una foto nueva'))
      .waitFor();
  }),
];

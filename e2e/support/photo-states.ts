// The photo section's steps (choose, crop, preview, on the pass), reached the way a
// guest reaches them; shared by photo.test.ts and, through guest-states.ts, by the states
// test (e2e/guest/states.test.ts: axe and screenshots). None of these states stores or removes a photo: a
// stored photo or an activated pass is the demo passholder's lookup answered as such, with
// the photo itself answered by the browser.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { demo, openPass, passCard, type GuestState } from './browser.ts';
import { fileOfSize, noFace, oneFace, photograph, twoFaces, type TestFile } from './photographs.ts';

/** The second passholder of demo order 10000001 (Mateo Lopez): photo.test.ts uploads to it. */
export const secondPassholder = { orderId: '10000001', barcode: '2400000000000028' } as const;

export const photoSection = (page: Page) => page.locator('section.photo-section');

export async function openPhotoSection(page: Page, login: { orderId: string; barcode: string } = demo.passholder) {
  await openPass(page, login.orderId, login.barcode);
  await passCard(page).waitFor();
  await photoSection(page).waitFor();
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
}

/**
 * Chooses the file. Playwright sends its bytes to the browser server in base64 over the
 * websocket: a 5 MB file took more than the page's 10 s under a full test run's load (CI,
 * 2026-11-26).
 */
export async function choosePhoto(page: Page, file: TestFile) {
  await page
    .getByLabel('Choose a photo')
    .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer }, { timeout: 30_000 });
}

/**
 * Waits for the crop step. It opens once the file is read and the crop's code chunk loaded: a
 * 5 MB file took more than the page's 10 s under a full test run's load.
 */
export async function waitForCropStep(page: Page) {
  await page.getByRole('heading', { level: 3, name: 'Crop Your Photo' }).waitFor({ timeout: 30_000 });
}

/** Waits for the crop step with the face check done (face-api loaded and run). */
export async function waitForFaceCheck(page: Page) {
  await waitForCropStep(page);
  // face-api runs its model in the page: on a busy machine that takes more than the page's 10 s.
  await page.locator('.ReactCrop__crop-selection').waitFor({ timeout: 45_000 });
  await page.getByText('Checking your photo…').waitFor({ state: 'detached', timeout: 45_000 });
}

export async function cropPhoto(page: Page, file: TestFile) {
  await choosePhoto(page, file);
  await waitForFaceCheck(page);
}

export async function previewPhoto(page: Page, file: TestFile) {
  await cropPhoto(page, file);
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('heading', { level: 3, name: 'Does your photo appear correct?' }).waitFor();
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

export const photoStates: GuestState[] = [
  {
    name: 'photo-crop-one-face',
    open: async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, await oneFace());
    },
  },
  {
    name: 'photo-crop-no-face',
    open: async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, await noFace());
    },
  },
  {
    name: 'photo-crop-several-faces',
    open: async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, await twoFaces());
    },
  },
  {
    name: 'photo-file-too-large',
    open: async (page) => {
      await openPhotoSection(page);
      await choosePhoto(page, await fileOfSize(5242880));
      await page.getByRole('alert').getByText('File size is too large').waitFor();
    },
  },
  {
    name: 'photo-confirm',
    open: async (page) => {
      await openPhotoSection(page);
      await previewPhoto(page, await oneFace());
    },
  },
  {
    name: 'photo-on-card',
    open: async (page) => {
      await answerWithStoredPhoto(page);
      await openPhotoSection(page);
    },
  },
  {
    name: 'photo-replace-confirm',
    open: async (page) => {
      await answerWithStoredPhoto(page);
      await openPhotoSection(page);
      await page.getByRole('button', { name: 'Replace Photo' }).click();
      await page.getByText('Are you sure you want to replace your current photo?').waitFor();
    },
  },
  {
    name: 'photo-request-confirm',
    open: async (page) => {
      await answerWithStoredPhoto(page, { activated: true });
      await openPhotoSection(page);
      await page.getByRole('button', { name: 'Replace Photo Request' }).click();
      await page.getByText(/can take up to 48 hours/).waitFor();
    },
  },
];

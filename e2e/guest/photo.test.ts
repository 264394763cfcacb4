// The season-pass photo in Chromium: the real face-api on real photographs, the crop, the
// server's preview, the upload to the pass card, and replacing the photo. The upload test
// stores a photo on the second demo passholder and removes it again with Replace Photo, leaving
// the demo data as it was.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertText, answerWithError, baseUrl, demo, launchBrowser, guestTabs, openPass, passCard } from '../support/browser.ts';
import { fileOfSize, noFace, oneFace, twoFaces, type TestFile } from '../support/photographs.ts';
import {
  answerWithStoredPhoto,
  choosePhoto,
  cropPhoto,
  openPhotoSection,
  photoSection,
  previewPhoto,
  secondPassholder,
  waitForCropStep,
  waitForFaceCheck,
} from '../support/photo-states.ts';

const TAIL = 'If you choose to continue, be aware that any guest photographs that do not meet our requirements may be rejected.';
const NO_FACE = `A face was not detected in this image, possibly due to a low quality image or other factors. ${TAIL}`;
const SEVERAL_FACES = `Multiple faces have been detected. ${TAIL}`;

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
let files: { one: TestFile; none: TestFile; two: TestFile };
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
  files = { one: await oneFace(), none: await noFace(), two: await twoFaces() };
});
afterAll(async () => {
  await browser?.close();
});

const withGuest = (run: (page: Page) => Promise<void>, width: 360 | 1280 = 360) => tabs.inPage(run, { width });

const faceMessage = (page: Page) => page.getByTestId('face-message');

/** The crop frame relative to the image, in the image's natural pixels. */
async function cropInImagePixels(page: Page) {
  return page.evaluate(() => {
    const image = document.querySelector<HTMLImageElement>('.photo-crop__image');
    const frame = document.querySelector('.ReactCrop__crop-selection');
    if (!image || !frame) throw new Error('no crop');
    const a = image.getBoundingClientRect();
    const b = frame.getBoundingClientRect();
    const scale = image.naturalWidth / a.width;
    return {
      x: (b.x - a.x) * scale,
      y: (b.y - a.y) * scale,
      width: b.width * scale,
      height: b.height * scale,
      imageWidth: image.naturalWidth,
      imageHeight: image.naturalHeight,
    };
  });
}

describe('the photo section', () => {
  it('shows for a passholder without a photo: the instructions and a picker for any image type', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      const section = photoSection(page);
      await expect(section.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Pass Photo');
      await expect(section.textContent()).resolves.toContain('JPG, PNG or GIF');
      await expect(page.getByLabel('Choose a photo').getAttribute('accept')).resolves.toBe('image/*');
    });
  });

  it('is not shown for tickets that are not a passholder', async () => {
    await withGuest(async (page) => {
      await openPass(page, demo.storedValue.orderId, demo.storedValue.barcode);
      await passCard(page).waitFor();
      expect(await photoSection(page).count()).toBe(0);
    });
  });

  it('loads face-api and its model only when a photo is chosen, and only from Boardwalk', async () => {
    await withGuest(async (page) => {
      const requests: string[] = [];
      page.on('request', (request: Request) => requests.push(request.url()));
      await openPhotoSection(page);
      expect(requests.filter((url) => /face-api|models\//.test(url))).toEqual([]);

      await cropPhoto(page, files.one);
      const model = requests.filter((url) => url.includes('/models/face-api/'));
      expect(model.some((url) => url.endsWith('/tiny_face_detector_model-weights_manifest.json'))).toBe(true);
      expect(model.some((url) => url.endsWith('/tiny_face_detector_model.bin'))).toBe(true);
      expect(requests.filter((url) => !url.startsWith(baseUrl()) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    });
  });

  it('refuses a file of 5242880 bytes with "File size is too large" and takes one of 5242879 bytes', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await choosePhoto(page, await fileOfSize(5242880));
      expect(await alertText(page)).toBe('File size is too large');
      expect(await page.getByRole('heading', { name: 'Crop Your Photo' }).count()).toBe(0);

      await choosePhoto(page, await fileOfSize(5242879));
      await waitForCropStep(page);
    });
  });
});

describe('the face check (real face-api on real photographs)', () => {
  it('one face: no message, and a 4:3 crop 2.25 times the face wide, centred on it', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, files.one);
      expect(await faceMessage(page).count()).toBe(0);
      const crop = await cropInImagePixels(page);
      expect(crop.width / crop.height).toBeCloseTo(4 / 3, 1);
      // Eileen Collins's face is about 100 px wide in the 512 px portrait, at x 180-290.
      expect(crop.width).toBeGreaterThan(180);
      expect(crop.width).toBeLessThan(0.9 * crop.imageWidth);
      const centre = crop.x + crop.width / 2;
      expect(centre).toBeGreaterThan(190);
      expect(centre).toBeLessThan(290);
    });
  });

  it('no face: the no-face warning, and the crop covers 90% of the image', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, files.none);
      expect(await faceMessage(page).textContent()).toBe(NO_FACE);
      const crop = await cropInImagePixels(page);
      expect(crop.width / crop.height).toBeCloseTo(4 / 3, 1);
      // coffee.png is 600 x 400 (3:2): 90% of its height at 4:3 is 480 x 360, centred.
      expect(crop.width).toBeCloseTo(Math.min(0.9 * crop.imageWidth, 0.9 * crop.imageHeight * (4 / 3)), -1);
      expect(crop.x + crop.width / 2).toBeCloseTo(crop.imageWidth / 2, -1);
    });
  });

  it('two faces (two real photographs side by side): the multiple-faces warning', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, files.two);
      expect(await faceMessage(page).textContent()).toBe(SEVERAL_FACES);
    });
  });

  it('keeps Preview disabled until the crop exists (while face-api loads)', async () => {
    await withGuest(async (page) => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/models/face-api/**', async (route) => {
        await held;
        await route.continue();
      });
      await openPhotoSection(page);
      await choosePhoto(page, files.one);
      await page.getByText('Checking your photo…').waitFor();
      expect(await page.getByRole('button', { name: 'Preview' }).isDisabled()).toBe(true);
      release();
      await waitForFaceCheck(page);
      expect(await page.getByRole('button', { name: 'Preview' }).isEnabled()).toBe(true);
    });
  });

  it('Cancel returns to the picker', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await cropPhoto(page, files.none);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByLabel('Choose a photo').waitFor();
      expect(await page.locator('.ReactCrop').count()).toBe(0);
    });
  });
});

describe('preview, confirm, upload, replace', () => {
  it('crops, previews, confirms and uploads: the photo replaces the barcode on the card; Replace Photo removes it', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page, secondPassholder);
      expect(await passCard(page).getByTestId('pass-barcode').count()).toBe(1);

      await previewPhoto(page, files.one);
      const section = photoSection(page);
      const text = (await section.textContent()) ?? '';
      expect(text).toContain('Does your photo appear correct?');
      expect(text).toContain('Once uploaded this can only be changed at Guest Services.');
      expect(text).toContain('(Photo may appear blurry)');
      const preview = section.getByRole('img', { name: 'Preview of your pass photo' });
      const size = await preview.evaluate((img: HTMLImageElement) => ({
        src: img.src.slice(0, 22),
        w: img.naturalWidth,
        h: img.naturalHeight,
      }));
      expect(size.src).toBe('data:image/bmp;base64,');
      expect(size.w / size.h).toBeCloseTo(4 / 3, 1);

      // Try Again goes back to the crop; Preview again.
      await page.getByRole('button', { name: 'Try Again' }).click();
      await page.getByRole('heading', { level: 3, name: 'Crop Your Photo' }).waitFor();
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('heading', { level: 3, name: 'Does your photo appear correct?' }).waitFor();

      const relogin = page.waitForResponse((r) => r.url().endsWith('/api/login/') && r.status() === 200);
      await page.getByRole('button', { name: 'Upload' }).click();
      await relogin;
      const photo = passCard(page).getByTestId('pass-photo');
      await photo.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="pass-photo"]');
        return img?.complete && img.naturalWidth > 0;
      });
      expect(await photo.getAttribute('src')).toMatch(/^\/api\/download\/[A-Za-z0-9_-]+\/photo\.png$/);
      expect(await photo.getAttribute('alt')).toBe('Photo of Mateo Lopez');
      expect(await passCard(page).getByTestId('pass-barcode').count()).toBe(0);
      expect(await passCard(page).getByText('This is not your wild pass card!').count()).toBe(0);
      await section.getByText('Your photo has been uploaded to your pass.').waitFor();

      // The photo stays after a fresh lookup.
      await openPhotoSection(page, secondPassholder);
      await passCard(page).getByTestId('pass-photo').waitFor();

      // Replace Photo: asks first; Cancel keeps the photo.
      await page.getByRole('button', { name: 'Replace Photo' }).click();
      await page.getByText('Are you sure you want to replace your current photo?').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await passCard(page).getByTestId('pass-photo').count()).toBe(1);
      await page.getByRole('button', { name: 'Replace Photo' }).click();
      await page.getByRole('button', { name: 'Yes, Replace Photo' }).click();
      await section.getByText('Replaced!').waitFor();
      await page.getByLabel('Choose a photo').waitFor();
      await passCard(page).getByTestId('pass-barcode').waitFor();
      expect(await passCard(page).getByTestId('pass-photo').count()).toBe(0);
    });
  });

  it('shows the server\'s text when the preview fails, and "Unable to preview photo" without one', async () => {
    await withGuest(async (page) => {
      await answerWithError(page, '/api/preview/', 400, 'Unable to preview photo');
      await openPhotoSection(page);
      await cropPhoto(page, files.none);
      await page.getByRole('button', { name: 'Preview' }).click();
      expect(await alertText(page)).toBe('Unable to preview photo');
      await page.unroute('**/api/preview/');
      await page.route('**/api/preview/', (route) =>
        route.fulfill({
          status: 413,
          contentType: 'application/json',
          json: { statusCode: 413, error: 'PAYLOAD_TOO_LARGE', message: 'File size is too large' },
        }),
      );
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('alert').getByText('File size is too large').waitFor();
      await page.unroute('**/api/preview/');
      await page.route('**/api/preview/', (route) => route.fulfill({ status: 200, contentType: 'application/json', json: { size: 10 } }));
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('alert').getByText('Unexpected response from server').waitFor();
    });
  });

  it('upload failures: "Unable to upload photo" for a non-200, "Network error, please try again" without an answer', async () => {
    await withGuest(async (page) => {
      await openPhotoSection(page);
      await previewPhoto(page, files.one);
      await answerWithError(page, '/api/upload/', 500, 'Internal');
      await page.getByRole('button', { name: 'Upload' }).click();
      expect(await alertText(page)).toBe('Unable to upload photo');
      await page.unroute('**/api/upload/');
      await page.route('**/api/upload/', (route) => route.abort('failed'));
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('alert').getByText('Network error, please try again').waitFor();
      expect(await passCard(page).getByTestId('pass-barcode').count()).toBe(1);
    });
  });

  it('Replace Photo failure: "Unable to replace photo"', async () => {
    await withGuest(async (page) => {
      await answerWithStoredPhoto(page);
      await answerWithError(page, '/api/replace-photo/**', 404, 'Unable to replace photo');
      await openPhotoSection(page);
      await page.getByRole('button', { name: 'Replace Photo' }).click();
      await page.getByRole('button', { name: 'Yes, Replace Photo' }).click();
      expect(await alertText(page)).toBe('Unable to replace photo');
    });
  });

  it('an activated pass asks for Replace Photo Request (48 hours) and says a team member will respond by email', async () => {
    await withGuest(async (page) => {
      await answerWithStoredPhoto(page, { activated: true });
      // No demo passholder is activated: the server's answer to the request is given here too.
      await page.route('**/api/reset-photo/**', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/plain',
          body: 'Your request has been received. A team member will respond by email.',
        }),
      );
      await openPhotoSection(page);
      expect(await page.getByRole('button', { name: 'Replace Photo', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Replace Photo Request' }).click();
      const question = (await page.locator('#reset-question').textContent()) ?? '';
      expect(question).toContain('our team will remove your current photo');
      expect(question).toContain('up to 48 hours');
      const call = page.waitForRequest((r) => r.url().endsWith(`/api/reset-photo/${demo.passholder.orderId}/${demo.passholder.barcode}`));
      await page.getByRole('button', { name: 'Send Request' }).click();
      await call;
      await page.getByRole('status').getByText('Your request has been received. A team member will respond by email.').waitFor();
    });
  });

  it('Replace Photo Request failure: "Unable to request a photo replacement"', async () => {
    await withGuest(async (page) => {
      await answerWithStoredPhoto(page, { activated: true });
      await openPhotoSection(page);
      await page.getByRole('button', { name: 'Replace Photo Request' }).click();
      // The real server: the demo passholder is not activated, so it refuses.
      await page.getByRole('button', { name: 'Send Request' }).click();
      expect(await alertText(page)).toBe('Unable to request a photo replacement');
    });
  });
});

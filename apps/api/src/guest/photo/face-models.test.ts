import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_DETECTOR_MODEL, faceModelsUrl } from '@boardwalk/contract/face-models';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

const packageJson = createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json');
const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
const base = faceModelsUrl(version);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /models/face-api/{version}/', () => {
  it('serves the tiny face detector manifest and weights from the installed package, cached for a year', async () => {
    const manifest = await t.app.inject({ method: 'GET', url: `${base}${FACE_DETECTOR_MODEL}-weights_manifest.json` });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);
    expect(manifest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const [group] = manifest.json<{ paths: string[] }[]>();
    expect(group?.paths).toEqual([`${FACE_DETECTOR_MODEL}.bin`]);

    const weights = await t.app.inject({ method: 'GET', url: `${base}${FACE_DETECTOR_MODEL}.bin` });
    expect(weights.statusCode).toBe(200);
    expect(weights.rawPayload.length).toBe(readFileSync(packageJson.replace(/package\.json$/, `model/${FACE_DETECTOR_MODEL}.bin`)).length);
    expect(weights.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves nothing else: other models, other versions, listings and paths outside the folder answer 404', async () => {
    for (const url of [
      `${base}ssd_mobilenetv1_model.bin`,
      `${base}`,
      `${base}../package.json`,
      `${base}%2e%2e/package.json`,
      `${faceModelsUrl('0.0.1')}${FACE_DETECTOR_MODEL}.bin`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});

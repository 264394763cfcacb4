// A camera for Chromium's fake capture device (--use-file-for-fake-video-capture): a Y4M video
// (raw I420 frames) showing a Code 128 barcode of the given text, drawn here with bwip-js and
// sharp, so the scanner test needs no recording and nothing from outside.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bwipjs from 'bwip-js/node';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser } from './browser.ts';

const WIDTH = 1920;
const HEIGHT = 1080;

/** Writes a Y4M file of `frames` identical frames showing the barcode, centred on white. */
export async function writeBarcodeVideo(path: string, text: string, frames = 5): Promise<void> {
  const png = await bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: 4,
    height: 30,
    includetext: false,
    paddingwidth: 20,
    paddingheight: 20,
  });
  const { data, info } = await sharp(png)
    .resize({ width: Math.round(WIDTH * 0.7), height: Math.round(HEIGHT * 0.5), fit: 'contain', background: '#ffffff' })
    .extend({ top: 270, bottom: 270, left: 288, right: 288, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== WIDTH || info.height !== HEIGHT || info.channels !== 1) throw new Error(`unexpected frame ${JSON.stringify(info)}`);
  // Grey -> I420 (BT.601 studio range): the luma plane; both chroma planes neutral.
  const y = Buffer.from(data.map((g) => Math.round(16 + (219 * g) / 255)));
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`), ...Array<Buffer>(frames).fill(frame)]),
  );
}

/** A Chromium whose camera (granted without asking) shows a Code 128 barcode of `code`. */
export async function launchCameraBrowser(code: string): Promise<Browser> {
  const video = join(mkdtempSync(join(tmpdir(), 'bw-camera-')), 'barcode.y4m');
  await writeBarcodeVideo(video, code);
  return launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
}

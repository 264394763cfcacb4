// Image handling of the photo: untrusted bytes in, a small metadata-free bitmap out.
// What the guest declares (file name, type, size) is never used: the bytes are sniffed,
// their pixel count bounded before anything is decoded (sharp's limitInputPixels reads
// the header only), and the result is re-encoded from raw pixels, which carry no EXIF,
// GPS, ICC or comment of the original.
import sharp, { type Metadata } from 'sharp';
import { MAX_PHOTO_BYTES, PHOTO_MAX_HEIGHT, PHOTO_MAX_WIDTH, type PhotoCrop } from '@boardwalk/contract/photo';
import { decodeBmp, encodeBmp, type RgbImage } from './bmp.ts';

/**
 * The most pixels a source photo may have: 50 megapixels covers every phone camera's
 * normal output (12 to 50 MP) while keeping one decode under ~150 MB of memory.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

export type PhotoProblem = 'too-large' | 'unreadable';
/** A photo the server will not take; `problem` picks the guest-facing text. */
export class PhotoError extends Error {
  constructor(
    readonly problem: PhotoProblem,
    why: string,
  ) {
    super(why);
  }
}

const DATA_URL_PREFIX = /^data:[^,;]{0,255}(?:;[^,;]{0,255})*;base64,/;

/** The bytes of a data URL or bare base64 string; its declared type is ignored. */
export function decodePhotoData(data: string, maxBytes = MAX_PHOTO_BYTES): Buffer {
  const prefix = DATA_URL_PREFIX.exec(data.slice(0, 1024));
  const body = prefix ? data.slice(prefix[0].length) : data;
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const expected = Math.floor(((body.length - padding) * 3) / 4);
  // Measured before decoding: the size limit (MAX_PHOTO_BYTES) holds whatever was declared.
  if (expected > maxBytes) throw new PhotoError('too-large', 'over the size limit');
  if (expected === 0) throw new PhotoError('unreadable', 'empty');
  // Node's decoder skips characters outside the alphabet instead of failing, so most
  // strings that are not base64 decode to fewer bytes than their length promises. The
  // check is cheap (a regular expression over the 7 MB string costs ~80 ms) and not the
  // defence: whatever decodes is still sniffed and decoded strictly.
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length !== expected) throw new PhotoError('unreadable', 'data is not base64');
  return bytes;
}

export type SourceFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** The format by its magic bytes: the photo formats only (no SVG, TIFF, PDF, HEIF...). */
export function sniffImageFormat(bytes: Buffer): SourceFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

const inputOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  // Truncated or corrupt data fails instead of rendering grey (sharp's advice for untrusted input).
  failOn: 'warning',
  autoOrient: true,
} as const;

/**
 * Crops a photo as the guest framed it, upright, scaled down to fit
 * PHOTO_MAX_WIDTH x PHOTO_MAX_HEIGHT, transparency on white: 3-channel sRGB pixels.
 *
 * The crop is given in pixels of the upright source. Instead of decoding the whole photo
 * at full size and then cropping, the whole photo is resized to the scale the crop needs
 * and the crop taken from that: for JPEG, libvips then decodes at 1/2, 1/4 or 1/8 size
 * directly (shrink-on-load), several times faster on a 12-megapixel photo (bench/photo).
 */
export async function renderPhoto(bytes: Buffer, crop: PhotoCrop): Promise<RgbImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw new PhotoError('unreadable', 'not a JPEG, PNG, GIF or WebP');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, inputOptions).metadata();
  } catch (error) {
    throw new PhotoError('unreadable', `unreadable header: ${(error as Error).message}`);
  }
  if (meta.format !== format) throw new PhotoError('unreadable', `content is ${meta.format}, header says ${format}`);
  // sharp refuses too many pixels itself at decode; checking here answers before any decode.
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new PhotoError('unreadable', 'too many pixels');
  const { width: sourceWidth, height: sourceHeight } = meta.autoOrient;

  const box = inPixels(crop, sourceWidth, sourceHeight);
  const left = Math.round(box.x);
  const top = Math.round(box.y);
  if (left >= sourceWidth || top >= sourceHeight) throw new PhotoError('unreadable', 'the crop is outside the image');
  // A box reaching past the image (rounding in the browser) is clamped to it.
  const cropWidth = Math.min(Math.round(box.width), sourceWidth - left);
  const cropHeight = Math.min(Math.round(box.height), sourceHeight - top);
  if (cropWidth < 1 || cropHeight < 1) throw new PhotoError('unreadable', 'the crop is outside the image');

  const scale = Math.min(1, PHOTO_MAX_WIDTH / cropWidth, PHOTO_MAX_HEIGHT / cropHeight);
  const scaledWidth = Math.max(1, Math.round(sourceWidth * scale));
  const scaledHeight = Math.max(1, Math.round(sourceHeight * scale));
  const outLeft = Math.min(Math.round(left * scale), scaledWidth - 1);
  const outTop = Math.min(Math.round(top * scale), scaledHeight - 1);
  const outWidth = Math.max(1, Math.min(Math.round(cropWidth * scale), PHOTO_MAX_WIDTH, scaledWidth - outLeft));
  const outHeight = Math.max(1, Math.min(Math.round(cropHeight * scale), PHOTO_MAX_HEIGHT, scaledHeight - outTop));

  try {
    let pipeline = sharp(bytes, inputOptions);
    if (scale < 1) pipeline = pipeline.resize(scaledWidth, scaledHeight, { fit: 'fill' });
    const { data, info } = await pipeline
      .extract({ left: outLeft, top: outTop, width: outWidth, height: outHeight })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return { width: info.width, height: info.height, rgb: data };
  } catch (error) {
    throw new PhotoError('unreadable', `cannot decode: ${(error as Error).message}`);
  }
}

/** A crop in pixels of an image of that size ('%' is of its width and height). */
function inPixels(crop: PhotoCrop, width: number, height: number): PhotoCrop {
  if (crop.unit !== '%') return crop;
  return { x: (crop.x * width) / 100, y: (crop.y * height) / 100, width: (crop.width * width) / 100, height: (crop.height * height) / 100 };
}

/** The BMP preview of a photo file and crop. */
export async function previewBmp(bytes: Buffer, crop: PhotoCrop): Promise<Buffer> {
  return encodeBmp(await renderPhoto(bytes, crop));
}

/** The stored forms of a confirmed BMP: re-encoded from its pixels, as BMP and as PNG. */
export async function storedForms(bmpBytes: Buffer): Promise<{ bmp: Buffer; png: Buffer; width: number; height: number }> {
  let image: RgbImage;
  try {
    image = decodeBmp(bmpBytes, { maxWidth: PHOTO_MAX_WIDTH, maxHeight: PHOTO_MAX_HEIGHT });
  } catch (error) {
    throw new PhotoError('unreadable', (error as Error).message);
  }
  const png = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png()
    .toBuffer();
  return { bmp: encodeBmp(image), png, width: image.width, height: image.height };
}

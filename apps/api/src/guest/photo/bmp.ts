// The 24-bit BMP the photo is stored as: the bitmap the guest confirmed, flattened on white.
//
// Written by hand on purpose: sharp (libvips) cannot write BMP, and its prebuilt binaries
// cannot read it either. The npm BMP codecs (bmp-js, last released in 2018, and its forks)
// accept every BMP variant (palettes, RLE, bit fields, 1 to 32 bits) on decode, which is
// the attack surface an upload of untrusted bytes should not have. The one variant this
// server writes is about 30 lines each way, so the decoder below accepts exactly that and
// nothing else: "BM", a 40-byte BITMAPINFOHEADER, 24 bits per pixel, no compression, no
// palette, a bounded size and a file length that matches it to the byte.

export interface RgbImage {
  width: number;
  height: number;
  /** Top-down rows of R, G, B bytes, no padding (sharp's raw 3-channel layout). */
  rgb: Buffer;
}

const FILE_HEADER = 14;
const INFO_HEADER = 40;
const PIXEL_OFFSET = FILE_HEADER + INFO_HEADER;
/** 72 dpi, in pixels per metre. */
const PIXELS_PER_METRE = 2835;

const rowSize = (width: number) => Math.ceil((width * 3) / 4) * 4;

/** The size in bytes of a 24-bit BMP of these dimensions. */
export const bmpSize = (width: number, height: number) => PIXEL_OFFSET + rowSize(width) * height;

/** Encodes top-down RGB as a bottom-up 24-bit BMP (the most widely read layout). */
export function encodeBmp({ width, height, rgb }: RgbImage): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgb.length !== width * height * 3) {
    throw new Error('encodeBmp: the pixels do not match the dimensions');
  }
  const stride = rowSize(width);
  const out = Buffer.alloc(PIXEL_OFFSET + stride * height);
  out.write('BM', 0, 'ascii');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(PIXEL_OFFSET, 10);
  out.writeUInt32LE(INFO_HEADER, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26); // planes
  out.writeUInt16LE(24, 28); // bits per pixel
  out.writeUInt32LE(0, 30); // BI_RGB: no compression
  out.writeUInt32LE(stride * height, 34);
  out.writeInt32LE(PIXELS_PER_METRE, 38);
  out.writeInt32LE(PIXELS_PER_METRE, 42);
  // Colours used and important colours (46, 50) stay 0: no palette.
  for (let y = 0; y < height; y++) {
    let src = (height - 1 - y) * width * 3;
    let dst = PIXEL_OFFSET + y * stride;
    for (let x = 0; x < width; x++, src += 3, dst += 3) {
      out[dst] = rgb[src + 2]!;
      out[dst + 1] = rgb[src + 1]!;
      out[dst + 2] = rgb[src]!;
    }
  }
  return out;
}

export class BmpFormatError extends Error {}

/**
 * Decodes a 24-bit uncompressed BMP no larger than maxWidth x maxHeight; anything else
 * (another variant, a size that does not add up, trailing or missing bytes) throws
 * BmpFormatError before any pixel is read.
 */
export function decodeBmp(bytes: Buffer, limits: { maxWidth: number; maxHeight: number }): RgbImage {
  const fail = (why: string): never => {
    throw new BmpFormatError(`not a 24-bit BMP: ${why}`);
  };
  if (bytes.length < PIXEL_OFFSET || bytes.toString('ascii', 0, 2) !== 'BM') fail('signature');
  if (bytes.readUInt32LE(2) !== bytes.length) fail('file size field');
  if (bytes.readUInt32LE(10) !== PIXEL_OFFSET) fail('pixel offset');
  if (bytes.readUInt32LE(14) !== INFO_HEADER) fail('header size');
  const width = bytes.readInt32LE(18);
  const signedHeight = bytes.readInt32LE(22);
  const height = Math.abs(signedHeight);
  const topDown = signedHeight < 0;
  if (width < 1 || height < 1 || width > limits.maxWidth || height > limits.maxHeight) fail('dimensions');
  if (bytes.readUInt16LE(26) !== 1 || bytes.readUInt16LE(28) !== 24) fail('bits per pixel');
  if (bytes.readUInt32LE(30) !== 0) fail('compression');
  if (bytes.readUInt32LE(46) !== 0) fail('palette');
  const stride = rowSize(width);
  if (bytes.length !== PIXEL_OFFSET + stride * height) fail('length');

  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    let src = PIXEL_OFFSET + (topDown ? y : height - 1 - y) * stride;
    let dst = y * width * 3;
    for (let x = 0; x < width; x++, src += 3, dst += 3) {
      rgb[dst] = bytes[src + 2]!;
      rgb[dst + 1] = bytes[src + 1]!;
      rgb[dst + 2] = bytes[src]!;
    }
  }
  return { width, height, rgb };
}

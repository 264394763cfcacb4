// Test and benchmark images, made with sharp at run time (no binary files in the repository).
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * A photo-like picture: smooth light gradients, a few soft shapes and sensor-like noise,
 * so that JPEG compresses it about as well (or as badly) as a phone photo.
 */
export function photoPixels(width: number, height: number, noise = 18, seed = 1): Buffer {
  const rgb = Buffer.alloc(width * height * 3);
  let state = seed >>> 0 || 1;
  // xorshift32: fast, deterministic.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const blobs = Array.from({ length: 12 }, () => ({
    x: random() * width,
    y: random() * height,
    r: (0.05 + random() * 0.2) * Math.min(width, height),
    c: [random() * 255, random() * 255, random() * 255],
  }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 60 + (140 * x) / width;
      let g = 90 + (100 * y) / height;
      let b = 170 - (80 * (x + y)) / (width + height);
      for (const blob of blobs) {
        const d = Math.hypot(x - blob.x, y - blob.y);
        if (d < blob.r) {
          const k = 1 - d / blob.r;
          r += (blob.c[0]! - r) * k;
          g += (blob.c[1]! - g) * k;
          b += (blob.c[2]! - b) * k;
        }
      }
      const n = (random() + random() + random() - 1.5) * noise;
      const i = (y * width + x) * 3;
      rgb[i] = Math.max(0, Math.min(255, r + n));
      rgb[i + 1] = Math.max(0, Math.min(255, g + n));
      rgb[i + 2] = Math.max(0, Math.min(255, b + n));
    }
  }
  return rgb;
}

export async function aJpeg(width: number, height: number, options: { quality?: number; noise?: number } = {}): Promise<Buffer> {
  return sharp(photoPixels(width, height, options.noise ?? 18), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: options.quality ?? 85 })
    .toBuffer();
}

/** The largest-quality JPEG of this size that stays at or under maxBytes. */
export async function aJpegNear(width: number, height: number, maxBytes: number, noise = 18): Promise<Buffer> {
  const pixels = photoPixels(width, height, noise);
  let best: Buffer | null = null;
  for (const quality of [97, 95, 93, 91, 89, 87, 85, 80, 75, 70, 60, 50]) {
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= maxBytes) {
      best = jpeg;
      break;
    }
  }
  if (!best) throw new Error(`no JPEG of ${width} x ${height} fits in ${maxBytes} bytes`);
  return best;
}

/** A lossless picture in four flat quadrants (red, green / blue, white) for exact pixel checks. */
export async function aQuadrantPng(width: number, height: number): Promise<Buffer> {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const right = x >= width / 2;
      const bottom = y >= height / 2;
      const colour = !bottom ? (right ? [0, 255, 0] : [255, 0, 0]) : right ? [255, 255, 255] : [0, 0, 255];
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A JPEG whose EXIF carries a GPS position (and a camera make), as a phone would write it. */
export async function aJpegWithGps(width: number, height: number): Promise<Buffer> {
  return sharp(photoPixels(width, height), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '33/1 59/1 4020/100', GPSLongitudeRef: 'W', GPSLongitude: '118/1 29/1 1560/100' },
    })
    .toBuffer();
}

/** A JPEG stored sideways with EXIF orientation 6 (turn 90 degrees clockwise to view). */
export async function aSidewaysJpeg(storedWidth: number, storedHeight: number): Promise<Buffer> {
  return sharp(photoPixels(storedWidth, storedHeight), { raw: { width: storedWidth, height: storedHeight, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A small, well-formed PNG file whose header declares width x height pixels (its image
 * data is a few rows only): a decompression bomb's shape without the bomb.
 */
export function aPngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

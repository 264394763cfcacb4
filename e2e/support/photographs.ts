// Real photographs for the face check (not drawings made for the test): the sample images
// Debian ships in python3-skimage (scikit-image's data folder). Installing that package
// pulls in SciPy, Matplotlib and some 180 other packages, so when it is not installed the
// .deb alone is fetched with apt-get and unpacked into .tmp/ (no root needed, no install).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = fileURLToPath(new URL('../..', import.meta.url));
const installedData = '/usr/lib/python3/dist-packages/skimage/data';
const unpacked = join(root, '.tmp/python3-skimage');
const unpackedData = join(unpacked, 'usr/lib/python3/dist-packages/skimage/data');

function downloadDeb() {
  try {
    execFileSync('apt-get', ['download', 'python3-skimage'], { cwd: unpacked, stdio: 'pipe' });
  } catch (error) {
    // A fresh machine may have no package lists yet; root can fetch them.
    if (process.getuid?.() !== 0) throw error;
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'pipe' });
    execFileSync('apt-get', ['download', 'python3-skimage'], { cwd: unpacked, stdio: 'pipe' });
  }
}

/** The folder holding astronaut.png, coffee.png, chelsea.png...; fetched on first use. */
export function skimageData(): string {
  if (existsSync(join(installedData, 'astronaut.png'))) return installedData;
  if (!existsSync(join(unpackedData, 'astronaut.png'))) {
    mkdirSync(unpacked, { recursive: true });
    if (!readdirSync(unpacked).some((f) => f.endsWith('.deb'))) downloadDeb();
    const deb = readdirSync(unpacked).find((f) => f.startsWith('python3-skimage_') && f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download python3-skimage gave no .deb');
    execFileSync('dpkg-deb', ['-x', join(unpacked, deb), unpacked], { stdio: 'pipe' });
  }
  return unpackedData;
}

export const photograph = (name: 'astronaut.png' | 'coffee.png' | 'chelsea.png' | 'camera.png') => join(skimageData(), name);

export interface TestFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** One face: Eileen Collins, NASA's portrait of 1998 (512 x 512). */
export async function oneFace(): Promise<TestFile> {
  return {
    name: 'astronaut.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp(photograph('astronaut.png')).jpeg({ quality: 90 }).toBuffer(),
  };
}

/** No human face: a cup of coffee. */
export async function noFace(): Promise<TestFile> {
  return { name: 'coffee.jpg', mimeType: 'image/jpeg', buffer: await sharp(photograph('coffee.png')).jpeg({ quality: 90 }).toBuffer() };
}

/** Two faces: the astronaut portrait and its mirror image side by side (1024 x 512). */
export async function twoFaces(): Promise<TestFile> {
  const portrait = await sharp(photograph('astronaut.png')).removeAlpha().toBuffer();
  const mirrored = await sharp(portrait).flop().toBuffer();
  const buffer = await sharp({ create: { width: 1024, height: 512, channels: 3, background: '#ffffff' } })
    .composite([
      { input: portrait, left: 0, top: 0 },
      { input: mirrored, left: 512, top: 0 },
    ])
    .png()
    .toBuffer();
  return { name: 'two-astronauts.png', mimeType: 'image/png', buffer };
}

/** A file of exactly `bytes` bytes that starts as a real JPEG (the browser checks the size only). */
export async function fileOfSize(bytes: number): Promise<TestFile> {
  const jpeg = (await oneFace()).buffer;
  const buffer = Buffer.alloc(bytes);
  jpeg.copy(buffer, 0, 0, Math.min(jpeg.length, bytes));
  return { name: 'large.jpg', mimeType: 'image/jpeg', buffer };
}

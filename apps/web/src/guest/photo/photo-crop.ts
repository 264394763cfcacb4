// The crop the guest starts from: around the detected face, 2.25 times its width, or 90% of the
// image when no face was found. Pure functions, in the pixels of the image as shown upright
// (naturalWidth x naturalHeight).
import { PHOTO_ASPECT_RATIO } from '@boardwalk/contract/photo';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The detected face's width is widened this many times for the crop. */
export const FACE_CROP_WIDEN = 2.25;
/** Without a face, the crop covers this share of the image. */
export const FALLBACK_CROP_SHARE = 0.9;

/** A 4:3 box of at most `width` wide, fitted inside the image, centred on (cx, cy) as far as the image allows. */
function aspectBoxAround(cx: number, cy: number, width: number, imageWidth: number, imageHeight: number): Box {
  const w = Math.min(width, imageWidth, imageHeight * PHOTO_ASPECT_RATIO);
  const h = w / PHOTO_ASPECT_RATIO;
  const x = Math.min(Math.max(cx - w / 2, 0), imageWidth - w);
  const y = Math.min(Math.max(cy - h / 2, 0), imageHeight - h);
  return { x, y, width: w, height: h };
}

/** 90% of the image: the largest 4:3 box within 90% of each side, centred. */
export function fallbackCrop(imageWidth: number, imageHeight: number): Box {
  const width = Math.min(imageWidth * FALLBACK_CROP_SHARE, imageHeight * FALLBACK_CROP_SHARE * PHOTO_ASPECT_RATIO);
  return aspectBoxAround(imageWidth / 2, imageHeight / 2, width, imageWidth, imageHeight);
}

/** The face widened 2.25 times, 4:3, centred on the face and clamped to the image. */
export function faceCrop(face: Box, imageWidth: number, imageHeight: number): Box {
  return aspectBoxAround(face.x + face.width / 2, face.y + face.height / 2, face.width * FACE_CROP_WIDEN, imageWidth, imageHeight);
}

/** The largest face, which the crop is built around when there are several. */
export function largestFace(faces: readonly Box[]): Box | null {
  return faces.reduce<Box | null>((best, face) => (!best || face.width * face.height > best.width * best.height ? face : best), null);
}

export function initialCrop(faces: readonly Box[], imageWidth: number, imageHeight: number): Box {
  const face = largestFace(faces);
  return face ? faceCrop(face, imageWidth, imageHeight) : fallbackCrop(imageWidth, imageHeight);
}

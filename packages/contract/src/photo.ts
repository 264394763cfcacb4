// The season-pass photo: preview, upload, download and replacement. The browser crops and
// previews, the server does the real work: it never trusts the declared name, type or size of
// what it is sent.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { barcode, orderId } from './pass.ts';

/** The largest photo file accepted, in bytes (5 MiB); larger is "File size is too large". */
export const MAX_PHOTO_BYTES = 5242880;
/** The stored photo fits inside this box (scaled down, never up): 4:3 like the crop. */
export const PHOTO_MAX_WIDTH = 480;
export const PHOTO_MAX_HEIGHT = 360;
/** The crop's aspect ratio (width / height) the browser asks for. */
export const PHOTO_ASPECT_RATIO = 4 / 3;

/** Texts the photo calls answer with, as the guest page shows them. */
export const photoMessages = {
  fileTooLarge: 'File size is too large',
  previewFailed: 'Unable to preview photo',
  uploadFailed: 'Unable to upload photo',
  replaceFailed: 'Unable to replace photo',
  resetFailed: 'Unable to request a photo replacement',
  replaced: 'Replaced!',
  resetRequested: 'Your request has been received. A team member will respond by email.',
  /** An activated season pass locked by its holder's erasure: what the guest sees instead of the upload and the registration. */
  passLocked: 'Visit Guest Services to put a new photo on this pass',
} as const;

/** Characters of a base64 string of MAX_PHOTO_BYTES bytes. */
export const MAX_PHOTO_BASE64_CHARS = Math.ceil(MAX_PHOTO_BYTES / 3) * 4;

/**
 * A data URL ("data:image/jpeg;base64,...") or bare base64. Its declared type is ignored.
 * The size is checked by the server after decoding (413 "File size is too large"); the
 * route's body limit keeps anything much larger from being read at all.
 */
const photoData = describe(
  z.string().check(z.minLength(1, 'data is required')),
  'The file as a data URL (data:<type>;base64,...) or bare base64',
);

const fileInfo = {
  filename: describe(z.string().check(z.maxLength(255)), 'As chosen by the guest; informational only'),
  filesize: describe(z.number().check(z.int(), z.nonnegative()), 'As declared by the browser; informational only (the server measures)'),
  /** The uid of the photo being replaced, if any; the server always makes a new one. */
  uid: describe(z.optional(z.string().check(z.maxLength(100))), 'Ignored: the server gives every stored photo a new uid'),
};

/**
 * The crop box of the source image as shown upright, i.e. after its EXIF orientation is
 * applied (the space of HTMLImageElement.naturalWidth/naturalHeight): react-image-crop's
 * object. `unit` 'px' (the default) gives pixels, '%' percentages of the image's width and
 * height, which the server turns into pixels. Fractions are rounded and the box is clamped
 * to the image; width and height must be > 0.
 */
export const photoCrop = z.strictObject({
  unit: describe(z.optional(z.enum(['px', '%'])), "'px' (default) or '%' of the upright image"),
  x: z.number().check(z.gte(0), z.lte(100000)),
  y: z.number().check(z.gte(0), z.lte(100000)),
  width: z.number().check(z.positive('Crop width must be greater than 0'), z.lte(100000)),
  height: z.number().check(z.positive('Crop height must be greater than 0'), z.lte(100000)),
});
export type PhotoCrop = z.infer<typeof photoCrop>;

/** POST /api/preview/: only the ticket's own guest (order id + barcode), never a shared view. */
export const previewRequest = z.strictObject({
  ...fileInfo,
  filetype: describe(z.string().check(z.maxLength(255)), 'As declared by the browser; informational only (the server sniffs the bytes)'),
  data: photoData,
  crop: photoCrop,
  orderId,
  barcode,
});
export type PreviewRequest = z.infer<typeof previewRequest>;

/** The cropped photo as the 24-bit BMP the upload will send back. */
export const previewAnswer = z.object({
  base64: describe(z.string(), 'The 24-bit BMP, base64 (no data: prefix): show as data:image/bmp;base64,...'),
  size: describe(z.number().check(z.int()), 'Bytes of the BMP'),
});
export type PreviewAnswer = z.infer<typeof previewAnswer>;

/** POST /api/upload/: the BMP the preview answered, confirmed by the guest. */
export const uploadRequest = z.strictObject({
  ...fileInfo,
  filetype: z.literal('image/bmp'),
  data: photoData,
  orderId,
  barcode,
});
export type UploadRequest = z.infer<typeof uploadRequest>;

export const uploadAnswer = z.object({ uid: describe(z.string(), 'The new photo uid (also the order object photoUid)') });
export type UploadAnswer = z.infer<typeof uploadAnswer>;

/**
 * A token in a path: letters, digits, _ and - (photo uids are base64url). Anything else is a
 * 400; a well-formed token that names nothing is the route's 404.
 */
const pathToken = (what: string) => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/, `${what} is not valid`));

/** Path of GET /api/download/{uid}/photo.bmp and photo.png: any unknown uid is a 404. */
export const photoUidParams = z.object({ uid: pathToken('Photo id') });

/** GET /api/replace-photo/{barcode}/{uid}: a wrong barcode or uid is the same 404 (and counted by the throttle). */
export const replacePhotoParams = z.object({ barcode: pathToken('Barcode'), uid: pathToken('Photo id') });

/** GET /api/reset-photo/{orderId}/{barcode} */
export const resetPhotoParams = z.object({ orderId, barcode });

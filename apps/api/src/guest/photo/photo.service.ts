// The season-pass photo: preview, upload, download, self-service replacement before the
// pass is activated, and a reset request to the team after.
//
// Who may do what:
// - preview and upload: the ticket's own guest (order id + barcode, under the login
//   throttle; never a shared view), on a passholder ticket without skipImage;
// - upload only while the ticket has no photo: a photo is changed by deleting it first
//   (replace-photo, or staff after a reset request), never overwritten;
// - replace-photo (delete): knowledge of barcode + photo uid, only before activation;
// - reset-photo: an activated pass with a photo; the team removes it, after which the
//   guest uploads a new one (so upload itself is not refused after activation, or a reset
//   would leave the pass with no way to get a photo);
// - preview and upload are refused on a pass locked by its holder's erasure (pass-lock.repo.ts)
//   until staff lift the lock: 403 "Visit Guest Services to put a new photo on this pass".
import { randomBytes } from 'node:crypto';
import { MAX_PHOTO_BYTES, photoMessages, type PreviewAnswer, type PreviewRequest, type UploadRequest } from '@boardwalk/contract/photo';
import { AppError } from '../../platform/errors.ts';
import { maskBarcode } from '../../platform/logging.ts';
import type { Executor } from '@boardwalk/db/client';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import type { LookupThrottles } from '../../platform/throttle.ts';
import type { Caller, TicketCore } from '../ticket/ticket.service.ts';
import { decodePhotoData, PhotoError, previewBmp, storedForms } from './photo-image.ts';
import { deletePhoto, findPhotoFile, findPhotoOfTicket, insertPhoto } from '../ticket/holder-photo.repo.ts';
import { isPassLockedForWrite } from '../ticket/pass-lock.repo.ts';
import { findOpenResetRequest, insertResetRequest } from './photo.repo.ts';

/** What the photo feature is built with, once (photo.routes.ts). */
export interface PhotoDeps {
  db: Executor;
  tickets: TicketCore;
  throttles: LookupThrottles;
  changes: ChangeBus;
  mailer: Pick<Mailer, 'send'>;
  /** TEAM_EMAIL; unset, requests are recorded for staff and logged only. */
  teamEmail: string | undefined;
  log: { warn(obj: object, msg: string): void };
}

/** A repeated reset request within this time sends no second email (48 hours). */
export const RESET_REQUEST_WINDOW_MS = 48 * 60 * 60 * 1000;

/** A new photo uid: 256 random bits, base64url (43 characters). */
export const newPhotoUid = () => randomBytes(32).toString('base64url');

/** The ticket of order id + barcode, if it is a passholder's that takes a photo; else `message`. */
async function findPhotoTicket(deps: PhotoDeps, request: Caller & { orderId: string; barcode: string }, message: string) {
  let found;
  try {
    found = await deps.tickets.find({ clientAddress: request.clientAddress, orderId: request.orderId, barcode: request.barcode });
  } catch (error) {
    if (error instanceof AppError && error.code === 'ORDER_NOT_FOUND') throw new AppError('ORDER_NOT_FOUND', message);
    throw error;
  }
  const { row } = found;
  if (!row.ticket.isPassholder || row.skipImage) throw new AppError('FORBIDDEN', message);
  if (row.passLocked) throw new AppError('FORBIDDEN', photoMessages.passLocked);
  return row;
}

function photoFailure(error: unknown, message: string): never {
  if (error instanceof PhotoError) {
    if (error.problem === 'too-large') throw new AppError('PAYLOAD_TOO_LARGE', photoMessages.fileTooLarge);
    throw new AppError('UNPROCESSABLE_IMAGE', message);
  }
  throw error;
}

/** POST /api/preview/: the guest's crop of their photo as the BMP they will confirm. */
export async function previewPhoto(deps: PhotoDeps, request: Caller & PreviewRequest): Promise<PreviewAnswer> {
  await findPhotoTicket(deps, request, photoMessages.previewFailed);
  try {
    const bmp = await previewBmp(decodePhotoData(request.data, MAX_PHOTO_BYTES), request.crop);
    return { base64: bmp.toString('base64'), size: bmp.length };
  } catch (error) {
    photoFailure(error, photoMessages.previewFailed);
  }
}

/** POST /api/upload/: stores the confirmed BMP, re-encoded, under a new uid. */
export async function uploadPhoto(deps: PhotoDeps, request: Caller & UploadRequest): Promise<{ uid: string; barcode: string }> {
  const row = await findPhotoTicket(deps, request, photoMessages.uploadFailed);
  if (row.photoUid) throw new AppError('CONFLICT', photoMessages.uploadFailed);
  let forms;
  try {
    forms = await storedForms(decodePhotoData(request.data, MAX_PHOTO_BYTES));
  } catch (error) {
    photoFailure(error, photoMessages.uploadFailed);
  }
  const uid = await deps.db.transaction(async (tx) => {
    if (await isPassLockedForWrite(tx, row.ticket.barcode)) throw new AppError('FORBIDDEN', photoMessages.passLocked);
    const stored = await insertPhoto(tx, { uid: newPhotoUid(), barcode: row.ticket.barcode, ...forms });
    // The photo on passes already in wallets.
    if (stored) await deps.changes.publish(tx, TICKET_CHANGED, [row.ticket.barcode]);
    return stored;
  });
  // Another upload for the same ticket won the race.
  if (!uid) throw new AppError('CONFLICT', photoMessages.uploadFailed);
  return { uid, barcode: row.ticket.barcode };
}

/** GET /api/download/{uid}/photo.bmp|png: any unknown uid is the same 404. */
export async function getPhotoFile(deps: Pick<PhotoDeps, 'db'>, uid: string, form: 'bmp' | 'png'): Promise<Buffer> {
  const data = await findPhotoFile(deps.db, uid, form);
  if (!data) throw new AppError('NOT_FOUND', 'Not found');
  return data;
}

/** GET /api/replace-photo/{barcode}/{uid}: deletes the photo so the guest can upload another. */
export async function replacePhoto(deps: PhotoDeps, request: Caller & { barcode: string; uid: string }): Promise<{ barcode: string }> {
  const photo = await deps.throttles.perAddress.attempt(request.clientAddress, async () => {
    const found = await findPhotoOfTicket(deps.db, { barcode: request.barcode, uid: request.uid });
    if (!found) throw new AppError('NOT_FOUND', photoMessages.replaceFailed);
    return found;
  });
  if (photo.isPassActivated) throw new AppError('FORBIDDEN', photoMessages.replaceFailed);
  await deps.db.transaction(async (tx) => {
    if (!(await deletePhoto(tx, { barcode: request.barcode, uid: request.uid })))
      throw new AppError('NOT_FOUND', photoMessages.replaceFailed);
    await deps.changes.publish(tx, TICKET_CHANGED, [request.barcode]);
  });
  return { barcode: request.barcode };
}

/**
 * GET /api/reset-photo/{orderId}/{barcode}: for an activated pass with a photo, records a
 * request for staff and emails the team. A repeat within 48 hours is answered the same
 * way without another email.
 */
export async function requestPhotoReset(deps: PhotoDeps, request: Caller & { orderId: string; barcode: string }): Promise<string> {
  const row = await findPhotoTicket(deps, request, photoMessages.resetFailed);
  if (!row.ticket.isPassActivated || !row.photoUid) throw new AppError('CONFLICT', photoMessages.resetFailed);
  const { orderId } = row.order;
  const { barcode } = row.ticket;
  if (await findOpenResetRequest(deps.db, { barcode, since: new Date(Date.now() - RESET_REQUEST_WINDOW_MS) })) {
    return photoMessages.resetRequested;
  }
  const { teamEmail } = deps;
  if (!teamEmail) {
    await insertResetRequest(deps.db, { orderId, barcode });
    deps.log.warn({ orderId, barcode: maskBarcode(barcode) }, 'photo reset request recorded; TEAM_EMAIL is not set, so no email');
    return photoMessages.resetRequested;
  }
  const holder = [row.registration?.firstName ?? row.ticket.holderFirstName, row.registration?.lastName ?? row.ticket.holderLastName]
    .filter(Boolean)
    .join(' ');
  const mail = {
    to: teamEmail,
    subject: `Photo reset request for order ${orderId}`,
    text: [
      'A guest asked for the photo of an activated season pass to be removed so they can upload a new one.',
      '',
      `Order ID: ${orderId}`,
      `Barcode: ${barcode}`,
      `Ticketholder: ${holder || '(no name)'}`,
      `Guest email: ${row.registration?.email ?? row.ticket.holderEmail ?? '(none on file)'}`,
      `Product: ${row.ticket.product ?? ''}`,
      `Requested at: ${new Date().toISOString()}`,
      '',
      'Please check the request, remove the photo, and reply to the guest by email (we told them a team member would respond within 48 hours).',
    ].join('\n'),
  };
  // The request and its mail commit together: a recorded request always gets its email.
  await deps.db.transaction(async (tx) => {
    await insertResetRequest(tx, { orderId, barcode });
    await deps.mailer.send(tx, mail);
  });
  return photoMessages.resetRequested;
}

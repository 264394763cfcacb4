import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  MAX_PHOTO_BASE64_CHARS,
  PHOTO_MAX_HEIGHT,
  PHOTO_MAX_WIDTH,
  photoMessages,
  photoUidParams,
  previewAnswer,
  previewRequest,
  replacePhotoParams,
  resetPhotoParams,
  uploadAnswer,
  uploadRequest,
} from '@boardwalk/contract/photo';
import { AppError } from '../../platform/errors.ts';
import { bmpSize } from './bmp.ts';
import { getPhotoFile, previewPhoto, replacePhoto, requestPhotoReset, uploadPhoto, type PhotoDeps } from './photo.service.ts';

const errors = { 400: apiError, 403: apiError, 404: apiError, 409: apiError, 413: apiError, 429: apiError };
/** Room for the JSON around the file: names, crop, ids. */
const JSON_OVERHEAD = 16 * 1024;
const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;
const text = z.string();

export const photoRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PhotoDeps = {
    db: app.database.db,
    tickets: app.tickets,
    throttles: app.lookupThrottles,
    changes: app.jobs,
    mailer: app.mailer,
    teamEmail: app.config.teamEmail,
    log: app.log.child({ module: 'photo' }),
  };

  // A body over a route's limit is a file over the size limit: say so in the guest's words
  // ("File size is too large"). (An error thrown here goes on to the app's error handler.)
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', photoMessages.fileTooLarge);
    throw error;
  });

  app.post('/api/preview/', {
    // The base64 of a 5 MB file and its JSON, no more (the app's default is 1 MiB).
    bodyLimit: MAX_PHOTO_BASE64_CHARS + JSON_OVERHEAD,
    schema: {
      tags: ['guest'],
      summary: "Crop the passholder's photo: answers the 24-bit BMP to confirm",
      description: `The crop is in pixels (unit 'px', the default) or percent (unit '%') of the upright image (EXIF orientation applied). The result fits ${PHOTO_MAX_WIDTH} x ${PHOTO_MAX_HEIGHT}.`,
      body: previewRequest,
      response: { 200: previewAnswer, ...errors },
    },
    handler: (request) => previewPhoto(deps, { clientAddress: request.ip, ...request.body }),
  });

  app.post('/api/upload/', {
    // The largest BMP the preview makes, as base64 in JSON.
    bodyLimit: base64Chars(bmpSize(PHOTO_MAX_WIDTH, PHOTO_MAX_HEIGHT)) + JSON_OVERHEAD,
    schema: {
      tags: ['guest'],
      summary: 'Store the confirmed BMP as the ticket photo (only while the ticket has none)',
      body: uploadRequest,
      response: { 200: uploadAnswer, ...errors },
    },
    handler: async (request) => {
      const { uid } = await uploadPhoto(deps, { clientAddress: request.ip, ...request.body });
      return { uid };
    },
  });

  app.get('/api/download/:uid/photo.bmp', {
    schema: {
      tags: ['guest'],
      summary: 'The photo as text: the base64 of its BMP',
      params: photoUidParams,
      response: { 200: text, 404: apiError },
    },
    handler: async (request, reply) => {
      const bmp = await getPhotoFile(deps, request.params.uid, 'bmp');
      return reply.type('text/plain; charset=utf-8').send(bmp.toString('base64'));
    },
  });

  app.get('/api/download/:uid/photo.png', {
    schema: {
      tags: ['guest'],
      summary: 'The photo as a PNG image (wallet passes, voucher)',
      params: photoUidParams,
      response: { 200: z.any().describe('image/png bytes'), 404: apiError },
    },
    handler: async (request, reply) => {
      const png = await getPhotoFile(deps, request.params.uid, 'png');
      return reply.type('image/png').send(png);
    },
  });

  app.get('/api/replace-photo/:barcode/:uid', {
    schema: {
      tags: ['guest'],
      summary: 'Delete the photo so the guest can upload another (before the pass is activated)',
      params: replacePhotoParams,
      response: { 200: text, ...errors },
    },
    handler: async (request, reply) => {
      await replacePhoto(deps, { clientAddress: request.ip, ...request.params });
      return reply.type('text/plain; charset=utf-8').send(photoMessages.replaced);
    },
  });

  app.get('/api/reset-photo/:orderId/:barcode', {
    schema: {
      tags: ['guest'],
      summary: 'Ask the team to remove the photo of an activated pass',
      params: resetPhotoParams,
      response: { 200: text, ...errors },
    },
    handler: async (request, reply) => {
      const answer = await requestPhotoReset(deps, { clientAddress: request.ip, ...request.params });
      return reply.type('text/plain; charset=utf-8').send(answer);
    },
  });
};

// POST /api/admin/privacy/export (Privacy Export): everything held about a person;
// POST /api/admin/privacy/erase (Privacy Erase): all of it erased.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { passLockLifted, passLockLiftRequest, privacyErasure, privacyExport, privacyQuery } from '@boardwalk/contract/privacy';
import { PRIVACY } from '@boardwalk/contract/staff-operations-tabs';
import { erasePersonalDataOf, exportPersonalData, liftPassLockOf, type PrivacyDeps } from './privacy.service.ts';

/** Every Privacy call: a body to validate, a session, and the call's own permission. */
const refusals = { 400: apiError, 401: apiError, 403: apiError };
const tags = ['staff'];

export const staffPrivacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PrivacyDeps = { db: app.database.db, keys: app.keys, privacy: app.privacy };
  app.post(PRIVACY.export.api, {
    onRequest: app.staffGuard(PRIVACY.export),
    schema: {
      tags,
      summary: 'Privacy: everything held about the person an email address, a phone number or a barcode names (audited)',
      body: privacyQuery,
      response: { 200: privacyExport, ...refusals },
    },
    handler: (request) => exportPersonalData(deps, request.staff!, request.body),
  });
  app.post(PRIVACY.erase.api, {
    onRequest: app.staffGuard(PRIVACY.erase),
    schema: {
      tags,
      summary:
        'Privacy: erase everything held about the person an email address, a phone number or a barcode names; orders and the points ledger stay without them (audited)',
      body: privacyQuery,
      response: { 200: privacyErasure, ...refusals },
    },
    handler: (request) => erasePersonalDataOf(deps, request.staff!, request.body),
  });
  app.post(PRIVACY.liftPassLock.api, {
    onRequest: app.staffGuard(PRIVACY.liftPassLock),
    schema: {
      tags,
      summary: 'Privacy: lift the lock an erasure left on an activated season pass, so a new photo and name can go on it (audited)',
      body: passLockLiftRequest,
      response: { 200: passLockLifted, ...refusals, 404: apiError },
    },
    handler: (request) => liftPassLockOf(deps, request.staff!, request.body.barcode),
  });
};

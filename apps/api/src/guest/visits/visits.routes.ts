import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { visitCalendar, visitCalendarRequest, visitCancelRequest, visitWindowRequest } from '@boardwalk/contract/visits';
import { guestLanguage } from '../../platform/guest-language.ts';
import { bookVisit, cancelVisit, joinVisitWaitlist, visitCalendar as calendar, type VisitDeps } from './visits.service.ts';

const errors = { 400: apiError, 403: apiError, 404: apiError, 409: apiError, 429: apiError };

/** The pass page's reservations: the same access as the pass (order id and barcode, throttled as a lookup). */
export const visitsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: VisitDeps = { db: app.database.db, tickets: app.tickets, changes: app.jobs, config: app.config };
  const answer = { 200: visitCalendar, ...errors };

  app.post('/api/visits/', {
    schema: {
      tags: ['guest'],
      summary: "A passholder's visit calendar: the next days' entry windows and what each is for the pass",
      body: visitCalendarRequest,
      response: answer,
    },
    handler: (request) => calendar(deps, { clientAddress: request.ip, ...request.body }),
  });
  app.post('/api/visits/book/', {
    schema: {
      tags: ['guest'],
      summary:
        "Book an entry window (the pass's booking that day moves to it); a full window answers 409 VISIT_WINDOW_FULL, which offers the waitlist",
      body: visitWindowRequest,
      response: answer,
    },
    handler: (request) => bookVisit(deps, { clientAddress: request.ip, language: guestLanguage(request), ...request.body }),
  });
  app.post('/api/visits/waitlist/', {
    schema: {
      tags: ['guest'],
      summary: "Join a full entry window's waitlist: booked by itself when a place frees",
      body: visitWindowRequest,
      response: answer,
    },
    handler: (request) => joinVisitWaitlist(deps, { clientAddress: request.ip, language: guestLanguage(request), ...request.body }),
  });
  app.post('/api/visits/cancel/', {
    schema: { tags: ['guest'], summary: 'Cancel a booking or a place on a waitlist', body: visitCancelRequest, response: answer },
    handler: (request) => cancelVisit(deps, { clientAddress: request.ip, ...request.body }),
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EVENTS_API, eventFeedPage, eventFeedQuery } from '@boardwalk/contract/events';
import { cursorText, parseCursor, readEvents, START } from './events.repo.ts';

/** The event feed: GET /api/integrations/events?after=<cursor>&limit=N, in order, from a cursor. */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(EVENTS_API, {
    config: { integrationScope: 'events' },
    schema: {
      summary: 'The events after a cursor, oldest first (kept RETENTION_EVENT_DAYS); pass back `next` to read on',
      querystring: eventFeedQuery,
      response: { 200: eventFeedPage },
    },
    handler: async (request) => {
      const { after, limit } = request.query;
      const page = await readEvents(app.database.db, after ? parseCursor(after) : START, limit);
      return { events: page.events, next: cursorText(page.next) };
    },
  });
};

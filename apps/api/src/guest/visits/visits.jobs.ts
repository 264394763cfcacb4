// The visits queue: a window's freed places move its waitlist, a pass used at the gate marks its
// bookings used, and every five minutes (and at start) the bookings whose window ended unused
// become no-shows (visit-waitlist.service.ts).
import fp from 'fastify-plugin';
import { ATTRACTION_VISITED } from '../../integrations/gate/gate.topics.ts';
import { markVisitNoShows, markVisitsUsed, promoteWaitlist, type WaitlistDeps } from './visit-waitlist.service.ts';
import { VISIT_PLACES_FREED } from './visits.topics.ts';

export const VISITS_QUEUE = 'visits';

export const visitsJobs = fp(
  async (app) => {
    const deps: WaitlistDeps = { db: app.database.db, tickets: app.tickets, changes: app.jobs, mailer: app.mailer, config: app.config };
    await app.jobs.declare<{ windowId?: string; barcode?: string }>({
      name: VISITS_QUEUE,
      policy: 'stately',
      batchSize: 5,
      cron: '*/5 * * * *',
      atStart: true,
      subscribes: [
        { topic: VISIT_PLACES_FREED, data: (windowId) => ({ windowId }), singletonKey: (windowId) => `window:${windowId}` },
        { topic: ATTRACTION_VISITED, data: (barcode) => ({ barcode }), singletonKey: (barcode) => `visit:${barcode}`, coalesce: true },
      ],
      handler: async ({ data }) => {
        if (data.windowId) await promoteWaitlist(deps, data.windowId);
        else if (data.barcode) await markVisitsUsed(deps, data.barcode);
        else await markVisitNoShows(deps);
      },
    });
  },
  { name: 'visits', dependencies: ['jobs', 'mailer', 'tickets'] },
);

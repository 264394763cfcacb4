// GET /api/admin/dashboard/?range=today|7|30|90 (Dashboard View): the back office's first page.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DASHBOARD_API, dashboard, dashboardQuery } from '@boardwalk/contract/dashboard';
import { apiError } from '@boardwalk/contract/errors';
import { DASHBOARD_VIEW } from '@boardwalk/contract/staff-operations-tabs';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { holds } from '../auth/auth.service.ts';
import { loadDashboard, type DashboardDeps } from './dashboard.service.ts';

export const staffDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: DashboardDeps = {
    db: app.database.db,
    timeZone: app.config.parkTimezone,
    pointsExpireMonths: app.config.loyalty.pointsExpireMonths,
    activity: app.activity,
    log: app.log,
  };
  app.get(DASHBOARD_API, {
    onRequest: app.staffGuard(DASHBOARD_VIEW),
    schema: {
      tags: ['staff'],
      summary: "Dashboard: claims, points, members, wallets and deliveries per operating day of the range, and the club's standing now",
      querystring: dashboardQuery,
      response: { 200: dashboard, 400: apiError, 401: apiError, 403: apiError },
    },
    handler: async (request) =>
      loadDashboard(deps, request.query.range, new Date(), await holds(app.database.db, request.staff!, LOYALTY.export)),
  });
};

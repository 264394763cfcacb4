// Staff sessions and permissions for every admin route (a route with no permission row is refused):
//   app.staffSession                 preHandler: 401 unless a live session (sets request.staff)
//   app.staffGuard(permission)       preHandler: the same, then 403 unless the member holds an
//                                    active permission for its api and method (read on each call)
// Seeds the permissions and the first administrator at start.
import type { preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { PermissionDeclaration } from '@boardwalk/contract/staff-tabs';
import { authenticate, authorize, type StaffIdentity } from './auth.service.ts';
import { dummyPasswordHash } from './passwords.ts';
import { seedStaff } from './staff-seed.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    staffSession: preHandlerAsyncHookHandler;
    staffGuard(permission: PermissionDeclaration): preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Set by app.staffSession and app.staffGuard; null on other routes. */
    staff: StaffIdentity | null;
  }
}

export const staffAuthPlugin = fp(
  async (app) => {
    const { db } = app.database;
    await seedStaff(db, { adminEmail: app.config.adminEmail, adminPassword: app.config.adminPassword });
    // Made now so the first failed login for an unknown username costs no more than others.
    await dummyPasswordHash();

    app.decorateRequest('staff', null);

    const staffSession: preHandlerAsyncHookHandler = async (request) => {
      request.staff = await authenticate(db, request.headers.authorization);
    };
    app.decorate('staffSession', staffSession);
    app.decorate('staffGuard', ({ api, method }: PermissionDeclaration): preHandlerAsyncHookHandler => async (request) => {
      const staff = await authenticate(db, request.headers.authorization);
      request.staff = staff;
      await authorize(db, staff, api, method);
    });
  },
  { name: 'staff-auth', dependencies: ['data'] },
);

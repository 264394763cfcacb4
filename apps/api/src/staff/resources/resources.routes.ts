// The routes of every back-office tab, generated from the declarations (the contract's
// staff-*-tabs.ts files, listed in staff-navigation.ts), and the select option lists. Each
// route is guarded by its declared permission (app.staffGuard), run as an onRequest
// hook: a caller without a session or the permission gets 401/403 before the body is even
// parsed, never a 400 that would tell them about the tab's fields.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  exportApi,
  OPTION_LISTS,
  optionList,
  optionListPermission,
  tabPermission,
  type OptionSource,
} from '@boardwalk/contract/staff-tabs';
import { resources } from '@boardwalk/contract/staff-navigation';
import { attachment } from '../../platform/csv-stream.ts';
import { createBodySchema, idParams, listQuerySchema, rowSchema, updateBodySchema } from './resource-schemas.ts';
import {
  createResource,
  deleteResource,
  exportResource,
  listOptions,
  listResource,
  prepareResource,
  updateResource,
  type ResourceDeps,
} from './resources.service.ts';

export const PASS_CUSTOMIZATION_OPTIONS_API = OPTION_LISTS.passCustomizations.api;
export const TEAM_MEMBER_OPTIONS_API = OPTION_LISTS.teamMembers.api;
export const LOYALTY_TIER_OPTIONS_API = OPTION_LISTS.loyaltyTiers.api;

const optionSummaries: Record<OptionSource, string> = {
  passCustomizations: 'Pass customization names, for the Customization select',
  teamMembers: 'Team members as "Last, First (level)", for the Team Member select',
  loyaltyTiers: 'Loyalty tier names, lowest threshold first, for the Minimum Tier select of the rewards',
};

const guarded = { 401: apiError, 403: apiError };
const writeErrors = { ...guarded, 400: apiError, 404: apiError, 409: apiError };

export const resourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: ResourceDeps = { db: app.database.db, changes: app.jobs, timeZone: app.config.parkTimezone };

  for (const tab of resources) {
    const resource = prepareResource(tab);
    const row = rowSchema(tab);
    const tags = ['staff'];

    app.get(tab.api, {
      onRequest: app.staffGuard(tabPermission(tab, 'List')),
      schema: {
        tags,
        summary: `${tab.title}: one page of rows (X-Total-Count: the number matching)`,
        querystring: listQuerySchema(tab),
        response: { 200: z.array(row), 400: apiError, ...guarded },
      },
      handler: async (request, reply) => {
        const page = await listResource(deps, resource, request.query);
        reply.header('X-Total-Count', String(page.total));
        return page.rows;
      },
    });

    app.get(exportApi(tab), {
      onRequest: app.staffGuard(tabPermission(tab, 'List')),
      schema: {
        tags,
        summary: `${tab.title}: every row the list shows (its search, filter and sort), as CSV`,
        querystring: listQuerySchema(tab),
        response: { 200: z.instanceof(Readable).describe('A CSV file (text/csv; charset=utf-8), streamed'), 400: apiError, ...guarded },
      },
      handler: async (request, reply) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment(`${tab.key}.csv`))
          .send(await exportResource(deps, resource, request.query, request.staff!)),
    });

    if (tab.operations.create) {
      app.post(tab.api, {
        onRequest: app.staffGuard(tabPermission(tab, 'Create')),
        schema: { tags, summary: `${tab.title}: create`, body: createBodySchema(tab), response: { 201: row, ...writeErrors } },
        handler: async (request, reply) => reply.code(201).send(await createResource(deps, resource, request.body, request.staff!)),
      });
    }

    if (tab.operations.update) {
      app.put(`${tab.api}:id`, {
        onRequest: app.staffGuard(tabPermission(tab, 'Update')),
        schema: {
          tags,
          summary: `${tab.title}: update (unchanged: nothing written)`,
          params: idParams,
          body: updateBodySchema(tab),
          response: { 200: row, ...writeErrors },
        },
        handler: (request) => updateResource(deps, resource, request.params.id, request.body, request.staff!),
      });
    }

    if (tab.operations.delete) {
      app.delete(`${tab.api}:id`, {
        onRequest: app.staffGuard(tabPermission(tab, 'Delete')),
        schema: {
          tags,
          summary: `${tab.title}: delete (answers the deleted row)`,
          params: idParams,
          response: { 200: row, ...writeErrors },
        },
        handler: (request) => deleteResource(deps, resource, request.params.id, request.staff!),
      });
    }
  }

  for (const source of Object.keys(OPTION_LISTS) as OptionSource[]) {
    app.get(OPTION_LISTS[source].api, {
      onRequest: app.staffGuard(optionListPermission(source)),
      schema: { tags: ['staff'], summary: optionSummaries[source], response: { 200: optionList, ...guarded } },
      handler: () => listOptions(app.database.db, source),
    });
  }
};

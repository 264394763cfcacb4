// Data access of the generic tabs (pages of rows, the total in X-Total-Count): fetchers, query
// options and mutations side by side. Lists are cached per tab (the query key starts with the
// tab's key) and a save or delete invalidates that tab's lists.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { exportApi, OPTION_LISTS, optionList, staffRow, type OptionSource, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import { staffRequest } from '../auth/staff-api.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';

export type Row = Record<string, unknown>;

export interface ListParams {
  page: number;
  pageSize: number;
  sort: string;
  direction: 'asc' | 'desc';
  search: string;
  /** The declaration's filter option (none when the tab has no filter). */
  filter?: string;
}

export interface ListAnswer {
  rows: Row[];
  total: number;
}

export interface SelectOption {
  value: string;
  label: string;
}

export const PAGE_SIZE = 50;

/** Keeps a tab's cached list on screen while the next one loads; refetched when 30 s old. */
const LIST_STALE_MS = 30_000;

/** What the list shows (its sort, search and filter) as query parameters. */
function shownBy(params: ListParams) {
  const query = new URLSearchParams({ sort: params.sort, direction: params.direction });
  if (params.search) query.set('search', params.search);
  if (params.filter) query.set('filter', params.filter);
  return query;
}

/** The CSV export of what the list shows. */
export const exportPath = (resource: ResourceDeclaration, params: ListParams) => `${exportApi(resource)}?${shownBy(params)}`;

export async function fetchList(resource: ResourceDeclaration, params: ListParams, signal?: AbortSignal): Promise<ListAnswer> {
  const query = shownBy(params);
  query.set('page', String(params.page));
  query.set('pageSize', String(params.pageSize));
  const { data: rows, headers } = await staffRequest(`${resource.api}?${query}`, { signal, schema: z.array(staffRow) });
  const total = Number(headers.get('X-Total-Count'));
  return { rows, total: Number.isFinite(total) && headers.has('X-Total-Count') ? total : rows.length };
}

export const listQueryOptions = (resource: ResourceDeclaration, params: ListParams) =>
  queryOptions({
    queryKey: [STAFF_QUERY_KEY, resource.key, 'list', params],
    queryFn: ({ signal }) => fetchList(resource, params, signal),
    placeholderData: keepPreviousData,
    staleTime: LIST_STALE_MS,
  });

export const optionsQueryOptions = (source: OptionSource) =>
  queryOptions({
    queryKey: [STAFF_QUERY_KEY, 'options', source],
    queryFn: async ({ signal }) => {
      const { data } = await staffRequest(OPTION_LISTS[source].api, { signal, schema: optionList });
      return data;
    },
    staleTime: LIST_STALE_MS,
  });

export function useSaveRecord(resource: ResourceDeclaration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string | null; body: Row }) => {
      const { data } = id
        ? await staffRequest(`${resource.api}${encodeURIComponent(id)}`, { method: 'PUT', body, schema: staffRow })
        : await staffRequest(resource.api, { method: 'POST', body, schema: staffRow });
      return data;
    },
    onSuccess: () => invalidateAfterChange(queryClient, resource),
  });
}

export function useDeleteRecord(resource: ResourceDeclaration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await staffRequest(`${resource.api}${encodeURIComponent(id)}`, { method: 'DELETE', schema: staffRow });
    },
    onSuccess: () => invalidateAfterChange(queryClient, resource),
  });
}

function invalidateAfterChange(queryClient: ReturnType<typeof useQueryClient>, resource: ResourceDeclaration) {
  // The option lists are other tabs' rows (customization names, team members).
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [STAFF_QUERY_KEY, resource.key] }),
    queryClient.invalidateQueries({ queryKey: [STAFF_QUERY_KEY, 'options'] }),
  ]);
}

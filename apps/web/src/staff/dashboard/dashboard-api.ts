// The Dashboard's one call, GET /api/admin/dashboard/?range=..., as a query per range.
import { queryOptions } from '@tanstack/react-query';
import { DASHBOARD_API, dashboard, type DashboardRange } from '@boardwalk/contract/dashboard';
import { staffRequest } from '../auth/staff-api.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';

export const dashboardQuery = (range: DashboardRange) =>
  queryOptions({
    queryKey: [STAFF_QUERY_KEY, 'dashboard', range],
    queryFn: async ({ signal }) => (await staffRequest(`${DASHBOARD_API}?range=${range}`, { signal, schema: dashboard })).data,
    // Figures move with every claim: fresh each time the page opens, and every minute while it is open.
    staleTime: 0,
    refetchInterval: 60_000,
  });

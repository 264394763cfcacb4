import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logoutStaff } from './staff-api.ts';
import { clearStaffStorage, getStaffUser } from './staff-session.ts';

export const STAFF_QUERY_KEY = 'staff';

/**
 * Logout calls DELETE /app/logout/{sessionGUID} and clears local storage except the remembered
 * username; the member is back on /login at once, whatever the server answers (an expired
 * session answers 401, which changes nothing here).
 */
export function useStaffLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    const user = getStaffUser();
    if (user) void logoutStaff(user).catch(() => undefined);
    clearStaffStorage();
    queryClient.removeQueries({ queryKey: [STAFF_QUERY_KEY] });
    void navigate('/login', { replace: true });
  }, [navigate, queryClient]);
}

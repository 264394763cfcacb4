// Back office errors: 401 shows 'Session Expired, Logging Out.' and logs out after 5 seconds;
// 403 a permission toast; 400 and 409 the server's message (the caller keeps its modal open);
// 5xx and network failures 'Unable to submit, please try again later.'.
import { useCallback } from 'react';
import { failedWith } from '../../lib/api-client.ts';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffLogout } from './use-staff-logout.ts';

export const STAFF_TEXTS = {
  sessionExpired: 'Session Expired, Logging Out.',
  forbidden: 'You do not have permission to do that.',
  unableToSubmit: 'Unable to submit, please try again later.',
} as const;

/** The forced logout comes 5 seconds after a 401 on an admin call. */
export const FORCED_LOGOUT_DELAY_MS = 5_000;

let logoutPending = false;

/**
 * Handles a failed admin call; answers the message to show in place for a 400 or 409 (the
 * form shows it), or null when a toast said everything.
 */
export function useStaffErrorHandler() {
  const toast = useToast();
  const logout = useStaffLogout();
  return useCallback(
    (error: unknown): string | null => {
      if (failedWith(error, 'UNAUTHORIZED')) {
        if (!logoutPending) {
          logoutPending = true;
          toast(STAFF_TEXTS.sessionExpired, 'danger');
          setTimeout(() => {
            logoutPending = false;
            logout();
          }, FORCED_LOGOUT_DELAY_MS);
        }
        return null;
      }
      if (failedWith(error, 'FORBIDDEN')) {
        toast(error.body?.message ?? STAFF_TEXTS.forbidden, 'danger');
        return null;
      }
      // What the member can fix or should know: the server's words, shown in place.
      if (failedWith(error, 'VALIDATION_FAILED', 'CONFLICT', 'NOT_FOUND') && error.body?.message) return error.body.message;
      toast(STAFF_TEXTS.unableToSubmit, 'danger');
      return null;
    },
    [logout, toast],
  );
}

/** Handles a failed admin call that has no place to show a message: the message is toasted too. */
export function useStaffErrorToast() {
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  return useCallback(
    (error: unknown) => {
      const message = handleError(error);
      if (message) toast(message, 'danger');
    },
    [handleError, toast],
  );
}

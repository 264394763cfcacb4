// The Loyalty tab's failures: 401 and 403 as every admin call; a 400 or 409 with the server's
// words (the member can act on them) toasted as they are; anything else the call's own toast.
import { useCallback, useEffect } from 'react';
import { failedWith } from '../../lib/api-client.ts';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';

export function useLoyaltyFailure() {
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  return useCallback(
    (error: unknown, text: string) => {
      if (failedWith(error, 'UNAUTHORIZED', 'FORBIDDEN')) return void handleError(error);
      if (failedWith(error, 'VALIDATION_FAILED', 'CONFLICT') && error.body?.message) return toast(error.body.message, 'danger');
      toast(text, 'danger');
    },
    [handleError, toast],
  );
}

/** Toasts a failed query once per failure. */
export function useToastOnError(error: unknown, text: string) {
  const fail = useLoyaltyFailure();
  useEffect(() => {
    if (error) fail(error, text);
  }, [error, fail, text]);
}

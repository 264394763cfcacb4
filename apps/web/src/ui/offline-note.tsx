import { formatShownAt } from '../lib/format.ts';

/** Above a page shown from the device's copy: the guest sees it may be out of date, and since when. */
export function OfflineNote({ shownAt }: { shownAt: string }) {
  return (
    <p className="offline-note" role="status" data-testid="offline-note">
      Offline: shown as it was <span className="text-nowrap">{formatShownAt(shownAt)}</span>
    </p>
  );
}

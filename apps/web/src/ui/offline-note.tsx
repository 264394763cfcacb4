import { useTranslations } from 'use-intl';
import { useFormats } from '../lib/format.ts';

/** Above a page shown from the device's copy: the guest sees it may be out of date, and since when. */
export function OfflineNote({ shownAt }: { shownAt: string }) {
  const t = useTranslations('common');
  const formats = useFormats();
  return (
    <p className="offline-note" role="status" data-testid="offline-note">
      {t.rich('offline', { shownAt: formats.shownAt(shownAt), when: (text) => <span className="text-nowrap">{text}</span> })}
    </p>
  );
}

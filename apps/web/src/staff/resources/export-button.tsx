// A CSV export's button: the server streams the file (what the tab shows: its search, filter
// and sort), the browser saves it under the name the server gives.
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../lib/save-json.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { staffFile } from '../auth/staff-api.ts';
import { useStaffErrorToast } from '../auth/staff-errors.ts';

export function ExportButton({ path, fallbackName, label = 'Export CSV' }: { path: string; fallbackName: string; label?: string }) {
  const showError = useStaffErrorToast();
  const download = useMutation({
    mutationFn: () => staffFile(path, { accept: 'text/csv', fallbackName }),
    onSuccess: (file) => saveBlob(file.blob, file.fileName),
    onError: showError,
  });
  return (
    <BusyButton variant="outline-secondary" size="sm" busy={download.isPending} busyLabel="Exporting…" onClick={() => download.mutate()}>
      {label}
    </BusyButton>
  );
}

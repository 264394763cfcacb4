// POST /api/voucher/: the PDF voucher, downloaded with the file name the server gives
// (it contains the barcode), and its mutation.
import { useMutation } from '@tanstack/react-query';
import type { VoucherRequest } from '@boardwalk/contract/wallet';
import { apiFile, type DownloadedFile } from '../../lib/api-client.ts';
import { saveFile } from './wallet-api.ts';

export function getVoucher(request: VoucherRequest): Promise<DownloadedFile> {
  return apiFile('/api/voucher/', {
    method: 'POST',
    body: request,
    accept: 'application/pdf',
    fallbackName: `voucher-${request.barcode}.pdf`,
  });
}

export function usePrintVoucher() {
  return useMutation({ mutationFn: getVoucher, onSuccess: saveFile });
}

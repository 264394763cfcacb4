// POST /api/voucher/: the PDF voucher, downloaded with the file name the server gives
// (it contains the barcode; guest-app.md section 7), and its mutation.
import { useMutation } from '@tanstack/react-query';
import type { VoucherRequest } from '@boardwalk/contract/wallet';
import { postForFile, saveFile, type DownloadedFile } from './wallet-api.ts';

export function getVoucher(request: VoucherRequest): Promise<DownloadedFile> {
  return postForFile('/api/voucher/', request, 'application/pdf', `voucher-${request.barcode}.pdf`);
}

export function usePrintVoucher() {
  return useMutation({ mutationFn: getVoucher, onSuccess: saveFile });
}

// The photo calls (preview, upload, replace, reset request): fetchers and mutations side by
// side. Every change to the photo invalidates the pass query, so the card and the section show
// the order as the server now has it (photoUid).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { useMemo } from 'react';
import { useTranslations } from 'use-intl';
import {
  previewAnswer,
  uploadAnswer,
  type PreviewAnswer,
  type PreviewRequest,
  type UploadAnswer,
  type UploadRequest,
} from '@boardwalk/contract/photo';
import type { PassOrder } from '@boardwalk/contract/pass';
import { apiRequest, failedWith } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';

/** The card's image of a stored photo (the server's PNG of the stored bitmap). */
export const photoImageUrl = (uid: string) => `/api/download/${encodeURIComponent(uid)}/photo.png`;

export function previewPhoto(request: PreviewRequest): Promise<PreviewAnswer> {
  return apiRequest('/api/preview/', { method: 'POST', body: request, schema: previewAnswer });
}

export function uploadPhoto(request: UploadRequest): Promise<UploadAnswer> {
  return apiRequest('/api/upload/', { method: 'POST', body: request, schema: uploadAnswer });
}

/** The answers are short texts ("Replaced!"); success is the status. */
export async function replacePhoto({ barcode, uid }: { barcode: string; uid: string }): Promise<void> {
  await apiRequest(`/api/replace-photo/${encodeURIComponent(barcode)}/${encodeURIComponent(uid)}`, { schema: z.unknown() });
}

export async function requestPhotoReset({ orderId, barcode }: { orderId: string; barcode: string }): Promise<void> {
  await apiRequest(`/api/reset-photo/${encodeURIComponent(orderId)}/${encodeURIComponent(barcode)}`, { schema: z.unknown() });
}

/**
 * The photo calls' failures in the page's language: no answer, an expired token and too many
 * attempts as every call says them; otherwise the call's own failure ("Unable to preview
 * photo"), worded by code (a file over the size, a locked pass, an answer without the photo).
 */
export function usePhotoErrors() {
  const t = useTranslations('photo');
  const errors = useTranslations('errors');
  const describe = useRequestErrors();
  return useMemo(() => {
    const fixed =
      (failure: string, networkError = t('networkError')) =>
      (error: unknown) =>
        describe(error, { networkError, failure });
    return {
      preview(error: unknown): string {
        if (failedWith(error, 'UNEXPECTED_RESPONSE')) return t('unexpectedResponse');
        if (failedWith(error, 'PAYLOAD_TOO_LARGE')) return errors('PAYLOAD_TOO_LARGE');
        if (failedWith(error, 'FORBIDDEN')) return t('passLocked');
        return fixed(t('previewFailed'))(error);
      },
      upload: (error: unknown) =>
        failedWith(error, 'TOO_MANY_ATTEMPTS') ? t('uploadFailed') : fixed(t('uploadFailed'), t('uploadNetworkError'))(error),
      replace: fixed(t('replaceFailed')),
      reset: fixed(t('resetFailed')),
    };
  }, [t, errors, describe]);
}

function useRefreshPass() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['pass'] });
}

export function usePreviewPhoto() {
  return useMutation({ mutationFn: previewPhoto });
}

export function useUploadPhoto() {
  const refreshPass = useRefreshPass();
  return useMutation({ mutationFn: uploadPhoto, onSuccess: refreshPass });
}

export function useReplacePhoto(order: PassOrder) {
  const refreshPass = useRefreshPass();
  return useMutation({
    mutationFn: () => replacePhoto({ barcode: order.barcode, uid: order.photoUid ?? '' }),
    onSuccess: refreshPass,
  });
}

export function useRequestPhotoReset(order: PassOrder) {
  return useMutation({ mutationFn: () => requestPhotoReset({ orderId: order.orderId, barcode: order.barcode }) });
}

// The photo calls (preview, upload, replace, reset request): fetchers and mutations side by
// side. Every change to the photo invalidates the pass query, so the card and the section show
// the order as the server now has it (photoUid).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { guestMessages } from '@boardwalk/contract/errors';
import {
  photoMessages,
  previewAnswer,
  uploadAnswer,
  type PreviewAnswer,
  type PreviewRequest,
  type UploadAnswer,
  type UploadRequest,
} from '@boardwalk/contract/photo';
import type { PassOrder } from '@boardwalk/contract/pass';
import { ApiRequestError, apiRequest, failedWith, TEMPORARY_SERVER_ERROR } from '../../lib/api-client.ts';

/** The card's image of a stored photo (the server's PNG of the stored bitmap). */
export const photoImageUrl = (uid: string) => `/api/download/${encodeURIComponent(uid)}/photo.png`;

/** The texts for a network error and an answer that is not what the call expects. */
const UNABLE_TO_PROCESS = 'Unable to process your request';
const UNEXPECTED_RESPONSE = 'Unexpected response from server';

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

/** Preview failure: the server's text, or "Unable to preview photo"; "Unexpected response from server" without base64. */
export function previewErrorMessage(error: unknown): string {
  if (failedWith(error, 'UNEXPECTED_RESPONSE')) return UNEXPECTED_RESPONSE;
  if (failedWith(error, 'NETWORK_ERROR')) return UNABLE_TO_PROCESS;
  if (failedWith(error, 'TOKEN_EXPIRED')) return TEMPORARY_SERVER_ERROR;
  if (error instanceof ApiRequestError) return error.body?.message || photoMessages.previewFailed;
  return photoMessages.previewFailed;
}

/** Upload: any non-200 gives "Unable to upload photo"; a network failure "Network error, please try again". */
export function uploadErrorMessage(error: unknown): string {
  if (failedWith(error, 'NETWORK_ERROR')) return 'Network error, please try again';
  if (failedWith(error, 'TOKEN_EXPIRED')) return TEMPORARY_SERVER_ERROR;
  return photoMessages.uploadFailed;
}

function fixedErrorMessage(failure: string) {
  return (error: unknown) => {
    if (failedWith(error, 'NETWORK_ERROR')) return UNABLE_TO_PROCESS;
    if (failedWith(error, 'TOKEN_EXPIRED')) return TEMPORARY_SERVER_ERROR;
    if (failedWith(error, 'TOO_MANY_ATTEMPTS')) return error.body?.message ?? guestMessages.tooManyAttempts;
    return failure;
  };
}

export const replaceErrorMessage = fixedErrorMessage(photoMessages.replaceFailed);
export const resetErrorMessage = fixedErrorMessage(photoMessages.resetFailed);

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

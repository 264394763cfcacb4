// The main pass page's URLs: /, /{orderId}/{barcode}/{shareId?}, and /{hashUrl} where a single
// first segment longer than 80 characters is a share link.
import { BARCODE_PATTERN, HASH_URL_MIN_SEGMENT, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID, type PassOrder } from '@boardwalk/contract/pass';

export type PassCredentials = { kind: 'order'; orderId: string; barcode: string; shareId: string } | { kind: 'hashUrl'; hashUrl: string };

export interface PassRouteParams {
  orderId?: string | undefined;
  barcode?: string | undefined;
  shareId?: string | undefined;
  hashUrl?: string | undefined;
}

const SHARE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isOrderIdInput = (value: string) => ORDER_ID_PATTERN.test(value) || value === TEST_PASS_ORDER_ID;
export const isBarcodeInput = (value: string) => BARCODE_PATTERN.test(value);

/** The credentials a URL carries: null for the bare page, 'invalid' for a URL that is no pass page. */
export function credentialsFromParams(params: PassRouteParams): PassCredentials | null | 'invalid' {
  if (params.hashUrl !== undefined) {
    return params.hashUrl.length > HASH_URL_MIN_SEGMENT ? { kind: 'hashUrl', hashUrl: params.hashUrl } : 'invalid';
  }
  if (params.orderId === undefined || params.barcode === undefined) return null;
  if (!isOrderIdInput(params.orderId) || !isBarcodeInput(params.barcode)) return 'invalid';
  // A share id that cannot be one is treated like a share that no longer exists: dropped.
  const shareId = params.shareId && SHARE_ID.test(params.shareId) ? params.shareId.toLowerCase() : '';
  return { kind: 'order', orderId: params.orderId, barcode: params.barcode, shareId };
}

export function passPath(credentials: PassCredentials | null): string {
  if (!credentials) return '/';
  if (credentials.kind === 'hashUrl') return `/${credentials.hashUrl}`;
  const { orderId, barcode, shareId } = credentials;
  return `/${orderId}/${barcode}${shareId ? `/${shareId}` : ''}`;
}

/**
 * Where the URL goes once the order is known: the order's barcode and share id (cleared when
 * the share is gone); a share link stays as it is. Shared views answer an empty order id, so
 * the order id is the one the guest used.
 */
export function canonicalCredentials(requested: PassCredentials, order: PassOrder): PassCredentials {
  if (requested.kind === 'hashUrl') return requested;
  return { kind: 'order', orderId: requested.orderId, barcode: order.barcode, shareId: order.shareId };
}

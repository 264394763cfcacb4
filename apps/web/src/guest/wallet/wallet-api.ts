// What the wallet and voucher calls share: the request body (order id and barcode, with the
// share id of a shared guest, or a share link's hashUrl alone; guest-app.md section 5) and
// the transport for answers that are a file or a line of text rather than JSON. Failures
// become the same typed errors as lib/api-client.ts, so describeRequestError maps them.
import { apiError } from '@boardwalk/contract/errors';
import type { AppleWalletRequest } from '@boardwalk/contract/wallet';
import { ApiRequestError, NetworkError } from '../../lib/api-client.ts';
import type { PassCredentials } from '../pass/pass-route.ts';

export function walletRequest(credentials: PassCredentials): AppleWalletRequest {
  if (credentials.kind === 'hashUrl') return { hashUrl: credentials.hashUrl };
  const { orderId, barcode, shareId } = credentials;
  return { orderId, barcode, ...(shareId && { shareId }) };
}

async function post(path: string, body: unknown, accept: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { Accept: `${accept}, application/json`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new NetworkError('The request did not reach the server', { cause });
  }
  if (!response.ok) throw await toRequestError(response);
  return response;
}

async function toRequestError(response: Response): Promise<ApiRequestError> {
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  const parsed = apiError.safeParse(json);
  const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
  return new ApiRequestError(response.status, parsed.success ? parsed.data : null, Number.isFinite(retryAfter) ? retryAfter : null);
}

/** A file the server sends, with the name its Content-Disposition gives. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export async function postForFile(path: string, body: unknown, accept: string, fallbackName: string): Promise<DownloadedFile> {
  const response = await post(path, body, accept);
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (cause) {
    throw new NetworkError('The file did not arrive', { cause });
  }
  return { blob, fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? fallbackName };
}

export async function postForText(path: string, body: unknown): Promise<string> {
  const response = await post(path, body, 'text/plain');
  try {
    return (await response.text()).trim();
  } catch (cause) {
    throw new NetworkError('The answer did not arrive', { cause });
  }
}

/**
 * The file name of a Content-Disposition header: filename* (RFC 6266 / RFC 8187, UTF-8,
 * percent-encoded) wins over filename (quoted or a token). Written here because the
 * content-disposition package is made for Node (it needs Buffer and path); this is the
 * one part a browser needs. Path separators are dropped, as a browser would.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[^']*'([^;\s]+)/i.exec(header);
  let name: string | null = null;
  if (extended?.[1]?.toLowerCase() === 'utf-8' && extended[2]) {
    try {
      name = decodeURIComponent(extended[2]);
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2] ?? null;
  }
  const cleaned = name?.replace(/[/\\]/g, '_').trim();
  return cleaned ? cleaned : null;
}

/**
 * Saves a file as a download under its name: an object URL on a link with the download
 * attribute, which every browser the guest pages support honours (file-saver only adds
 * fallbacks for browsers without it). The URL is released once the download has surely
 * started.
 */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// The one way the app talks to the API, guest pages, wallet calls and back office alike:
// JSON in; answers parsed by the contract's Zod schemas, or taken as a file or a line of
// text; every failure one typed error carrying the contract's error code, which the
// features map to the texts people see.
import type { z } from 'zod/mini';
import { apiError, errorCodeForStatus, isErrorCode, type ApiError, type ErrorCode } from '@boardwalk/contract/errors';

/**
 * A contract schema: on zod/mini (the guest pages' modules, for their first-screen budget) or on
 * classic Zod (the back office's). Both kinds have safeParse, with the same results.
 */
export type ContractSchema<T = unknown> = z.core.$ZodType<T> & { safeParse(data: unknown): z.core.util.SafeParseResult<T> };

/** The contract's codes, and the two a client meets on its own side. */
export type ClientErrorCode = ErrorCode | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE' | 'HTTP_ERROR';

/** A call that failed: no answer, an error answer, or an answer that breaks the contract. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly code: ClientErrorCode,
    message: string,
    /** The error body when it has the contract's shape: the server's own words, its fields. */
    readonly body: ApiError | null = null,
    /** Seconds from the answer's Retry-After header, when given. */
    readonly retryAfterSeconds: number | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const noAnswer = (cause: unknown) => new ApiRequestError(0, 'NETWORK_ERROR', 'The request did not reach the server', null, null, { cause });
const unexpected = (status: number, message: string, cause?: unknown) =>
  new ApiRequestError(status, 'UNEXPECTED_RESPONSE', message, null, null, { cause });

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Sent as `Authorization: Bearer <token>` (the back office). */
  token?: string | null | undefined;
}

/** Sends the request; answers the response when its status is 2xx, throws ApiRequestError otherwise. */
async function send(path: string, { method = 'GET', body, signal, token }: RequestOptions, accept: string): Promise<Response> {
  // The language the page shows (lib/language.tsx keeps <html lang>): what the server writes
  // for this guest (mails, passes) and stores with their registration, share or membership.
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': document.documentElement.lang || 'en' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'same-origin',
      ...(signal && { signal }),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw noAnswer(cause);
  }
  if (response.ok) return response;
  const parsed = apiError.safeParse(parseJson(await response.text().catch(() => '')));
  const errorBody = parsed.success ? parsed.data : null;
  const code = isErrorCode(errorBody?.error) ? errorBody.error : (errorCodeForStatus(response.status) ?? 'HTTP_ERROR');
  throw new ApiRequestError(
    response.status,
    code,
    errorBody?.message ?? `Request failed with status ${response.status}`,
    errorBody,
    retryAfter(response.headers.get('Retry-After')),
  );
}

/** Reads the body; a connection lost while it arrives is no answer. */
async function read<T>(response: Response, how: (response: Response) => Promise<T>): Promise<T> {
  try {
    return await how(response);
  } catch (cause) {
    throw noAnswer(cause);
  }
}

/** A JSON answer with its status and headers, parsed by the schema. */
export async function apiResponse<S extends ContractSchema>(
  path: string,
  options: RequestOptions & { schema: S },
): Promise<{ status: number; headers: Headers; data: z.output<S> }> {
  const response = await send(path, options, 'application/json');
  const parsed = (options.schema as ContractSchema<z.output<S>>).safeParse(parseJson(await read(response, (r) => r.text())));
  if (!parsed.success) throw unexpected(response.status, `Unexpected answer from ${options.method ?? 'GET'} ${path}`, parsed.error);
  return { status: response.status, headers: response.headers, data: parsed.data };
}

/** A JSON answer, parsed by the schema. */
export async function apiRequest<S extends ContractSchema>(path: string, options: RequestOptions & { schema: S }): Promise<z.output<S>> {
  return (await apiResponse(path, options)).data;
}

/** A file the server sends, with the name its Content-Disposition gives. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export async function apiFile(path: string, options: RequestOptions & { accept: string; fallbackName: string }): Promise<DownloadedFile> {
  const response = await send(path, options, `${options.accept}, application/json`);
  const blob = await read(response, (r) => r.blob());
  return { blob, fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? options.fallbackName };
}

/** A line of text (the Google Wallet link), trimmed. */
export async function apiText(path: string, options: RequestOptions): Promise<string> {
  const response = await send(path, options, 'text/plain, application/json');
  return (await read(response, (r) => r.text())).trim();
}

/** Throws the error of an answer that arrived but breaks what the call expects. */
export function unexpectedAnswer(message: string, cause?: unknown): never {
  throw unexpected(200, message, cause);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
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

/** True when the call failed with one of these codes. */
export const failedWith = (error: unknown, ...codes: ClientErrorCode[]): error is ApiRequestError =>
  error instanceof ApiRequestError && codes.includes(error.code);

/** The errors catalogue's words a description needs: `useTranslations('errors')` (lib/request-errors.ts). */
export type ErrorWords = (code: 'TOKEN_EXPIRED' | 'TOO_MANY_ATTEMPTS') => string;

/**
 * The guest-facing text for a failed call: an expired token and too many attempts are common to
 * every call (worded by the errors catalogue); no answer and any other failure have a text per call.
 */
export function describeRequestError(error: unknown, texts: { networkError: string; failure: string }, errors: ErrorWords): string {
  if (failedWith(error, 'NETWORK_ERROR')) return texts.networkError;
  if (failedWith(error, 'TOKEN_EXPIRED')) return errors('TOKEN_EXPIRED');
  if (failedWith(error, 'TOO_MANY_ATTEMPTS')) return errors('TOO_MANY_ATTEMPTS');
  return texts.failure;
}

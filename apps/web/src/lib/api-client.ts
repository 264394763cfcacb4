// The one way the app talks to the API: JSON in, answers parsed by the contract's Zod
// schemas, failures turned into typed errors the features map to guest-facing texts.
import type { z } from 'zod';
import { apiError, type ApiError } from '@boardwalk/contract/errors';

/** The server answered with a 4xx or 5xx status. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    /** The error body, when it has the contract's shape. */
    readonly body: ApiError | null,
    /** Seconds from the Retry-After header of a 429, when given. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
}

/** The request never got an answer: offline, DNS, connection reset. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** The server answered 2xx with a body that does not match the contract. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
}

export interface ApiRequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Parses a successful answer. */
  schema: S;
  signal?: AbortSignal;
}

export async function apiRequest<S extends z.ZodType>(path: string, options: ApiRequestOptions<S>): Promise<z.output<S>> {
  const { method = 'GET', body, schema, signal } = options;
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'same-origin',
      ...(signal && { signal }),
    });
    text = await response.text();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new NetworkError('The request did not reach the server', { cause });
  }
  const json = parseJson(text);
  if (!response.ok) {
    const parsed = apiError.safeParse(json);
    throw new ApiRequestError(response.status, parsed.success ? parsed.data : null, retryAfter(response.headers.get('Retry-After')));
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UnexpectedResponseError(`Unexpected answer from ${method} ${path}`, { cause: parsed.error });
  return parsed.data;
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

/** guest-app.md section 8, "Common". */
export const TEMPORARY_SERVER_ERROR = 'Temporary server error, please retry';

/**
 * The guest-facing text for a failed call (guest-app.md section 8): 408 and 429 are common
 * to every call; a network failure and any other failure have a text per call.
 */
export function describeRequestError(error: unknown, texts: { networkError: string; failure: string }): string {
  if (error instanceof NetworkError) return texts.networkError;
  if (error instanceof ApiRequestError) {
    if (error.status === 408) return TEMPORARY_SERVER_ERROR;
    if (error.status === 429 && error.body?.message) return error.body.message;
  }
  return texts.failure;
}

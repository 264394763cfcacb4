// What a guest page showed, kept on the guest's own device, so the page opens with no network
// (at the gate, on the pier): the pass page, its shared view and the stored-value page keep their
// last answer; with no network they show it with the time it was shown, and ask again as soon as
// the browser is back online. Only what the page showed is kept, keyed by the page's path (one
// copy per pass); an answer the page shows replaces the copy, an answer that the pass is gone
// (no longer shared, not found) erases it, and Start Over erases every copy (forgetAllCopies).
// In IndexedDB through idb-keyval (a small, well-kept wrapper), in a database of its own
// (DEVICE_COPY_DATABASE), opened only when a page first keeps or reads a copy. A browser that
// refuses storage (private mode, a full disk) shows the pages as before, without copies.
import { useEffect } from 'react';
import { clear, createStore, del, get, set, type UseStore } from 'idb-keyval';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import { failedWith } from './api-client.ts';

/** The IndexedDB database and object store of the copies (the browser tests read them). */
export const DEVICE_COPY_DATABASE = 'boardwalk-guest';
export const DEVICE_COPY_STORE = 'shown';

interface KeptCopy {
  /** When the page showed it (ISO 8601). */
  shownAt: string;
  data: unknown;
}

/** A copy as the page shows it with no network. */
export interface DeviceCopy<T> {
  data: T;
  shownAt: string;
}

let store: UseStore | undefined;
const copies = () => (store ??= createStore(DEVICE_COPY_DATABASE, DEVICE_COPY_STORE));

const keepCopy = (key: string, data: unknown) =>
  set(key, { shownAt: new Date().toISOString(), data } satisfies KeptCopy, copies()).catch(() => undefined);
const forgetCopy = (key: string) => del(key, copies()).catch(() => undefined);

/** Start Over: nothing any page showed stays on the device. */
export const forgetAllCopies = (): Promise<void> => clear(copies()).catch(() => undefined);

/** The page's copy; none when it no longer reads as the contract's shape (kept by an older build). */
async function recallCopy<T>(key: string, schema: z.ZodType<T>): Promise<DeviceCopy<T> | null> {
  const kept = await get<KeptCopy>(key, copies()).catch(() => undefined);
  if (typeof kept?.shownAt !== 'string') return null;
  const parsed = schema.safeParse(kept.data);
  return parsed.success ? { data: parsed.data, shownAt: kept.shownAt } : null;
}

interface DeviceCopyOptions<T> {
  /** The contract's schema of the answer, which the copy must still match. */
  schema: z.ZodType<T>;
  /** The page shows the query's answer now (a page about to move to another address does not). */
  shown: boolean;
  /** An error that says the pass is gone for this guest: the copy is erased. */
  erases: (error: unknown) => boolean;
  /** Called with the copy as soon as it is read: what the page would need to show it (a chunk) is fetched meanwhile. */
  prepare?: (copy: T) => void;
}

/**
 * Keeps the answer the page shows under `key`, and reads the copy beside the query (so a failed
 * query for want of a network shows it at once): `copy` is what to show with its time when the
 * query failed so (null online, or with no copy), `pending` while it is still read. Back online,
 * the query is asked again and its answer replaces the copy.
 */
export function useDeviceCopy<T>(key: string | null, query: UseQueryResult<T>, { schema, shown, erases, prepare }: DeviceCopyOptions<T>) {
  const offline = key !== null && query.isError && failedWith(query.error, 'NETWORK_ERROR');
  const copy = useQuery({
    queryKey: ['device-copy', key],
    queryFn: async () => {
      const kept = await recallCopy(key ?? '', schema);
      if (kept) prepare?.(kept.data);
      return kept;
    },
    enabled: key !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
  const showing = key !== null && shown && query.isSuccess ? query.data : undefined;
  useEffect(() => {
    if (key !== null && showing !== undefined) void keepCopy(key, showing);
  }, [key, showing]);
  const erasing = key !== null && query.isError && erases(query.error);
  useEffect(() => {
    if (key !== null && erasing) void forgetCopy(key);
  }, [key, erasing]);
  const { refetch } = query;
  useEffect(() => {
    if (!offline) return;
    const askAgain = () => void refetch();
    window.addEventListener('online', askAgain);
    return () => window.removeEventListener('online', askAgain);
  }, [offline, refetch]);
  return { copy: offline ? (copy.data ?? null) : null, pending: offline && copy.isPending };
}

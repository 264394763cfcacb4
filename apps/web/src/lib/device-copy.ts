// What a guest page showed, kept on the guest's own device, so the page opens with no network
// (at the gate, on the pier): the pass page, its shared view and the stored-value page keep their
// last answer; with no network they show it with the time it was shown, and ask again as soon as
// the browser is back online. Only what the page showed is kept, keyed by the page's path (one
// copy per pass); an answer the page shows replaces the copy, an answer that the pass is gone
// (no longer shared, not found) erases it, and Start Over erases every copy (forgetAllCopies).
// In IndexedDB through idb-keyval (a small, well-kept wrapper), in a database of its own
// (DEVICE_COPY_DATABASE), opened only when a page first keeps or reads a copy. A browser that
// refuses storage (private mode, a full disk) shows the pages as before, without copies.
//
// A copy holds only what the page shows with no network (the page's `keep` reduces the answer:
// no token, no one's email or phone), and it expires: at the answer's own expiry (a pass's
// `expires`) or OFFLINE_COPY_MAX_DAYS after it was last shown online, whichever is first. An
// expired copy, or one kept by a build before expiries (no expiresAt), is erased when read and
// whenever a page keeps a copy.
import { useEffect } from 'react';
import { clear, createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { failedWith, type ContractSchema } from './api-client.ts';

/** The IndexedDB database and object store of the copies (the browser tests read them). */
export const DEVICE_COPY_DATABASE = 'boardwalk-guest';
export const DEVICE_COPY_STORE = 'shown';

/**
 * The longest a copy lives without the page being shown online again (days): a constant of the
 * build, not a server setting, so it holds with no network (docs/configuration.md).
 */
export const OFFLINE_COPY_MAX_DAYS = 30;
const DAY_MS = 86_400_000;

interface KeptCopy {
  /** When the page showed it (ISO 8601). */
  shownAt: string;
  /** When the copy stops being shown and is erased (ISO 8601). */
  expiresAt: string;
  data: unknown;
}

/** The earlier of the answer's own expiry and OFFLINE_COPY_MAX_DAYS from now. */
export function copyExpiry(now: Date, ownExpiry: string | null): string {
  const longest = now.getTime() + OFFLINE_COPY_MAX_DAYS * DAY_MS;
  const own = ownExpiry ? Date.parse(ownExpiry) : Number.NaN;
  return new Date(Number.isNaN(own) ? longest : Math.min(own, longest)).toISOString();
}

/** Expired, or kept by a build that set no expiry. */
const isExpired = (kept: Partial<KeptCopy> | undefined) =>
  typeof kept?.expiresAt !== 'string' || !(Date.parse(kept.expiresAt) > Date.now());

/** A copy as the page shows it with no network. */
export interface DeviceCopy<T> {
  data: T;
  shownAt: string;
}

let store: UseStore | undefined;
const copies = () => (store ??= createStore(DEVICE_COPY_DATABASE, DEVICE_COPY_STORE));

const forgetCopy = (key: string) => del(key, copies()).catch(() => undefined);

/** Erases every expired copy (a pass not shown for OFFLINE_COPY_MAX_DAYS, one past its own expiry). */
async function forgetExpiredCopies() {
  const kept = await entries<IDBValidKey, Partial<KeptCopy>>(copies()).catch(() => []);
  await Promise.all(kept.filter(([, value]) => isExpired(value)).map(([key]) => forgetCopy(String(key))));
}

async function keepCopy(key: string, data: unknown, ownExpiry: string | null) {
  const now = new Date();
  const copy: KeptCopy = { shownAt: now.toISOString(), expiresAt: copyExpiry(now, ownExpiry), data };
  if (isExpired(copy)) await forgetCopy(key);
  else await set(key, copy, copies()).catch(() => undefined);
  await forgetExpiredCopies();
}

/** Start Over: nothing any page showed stays on the device. */
export const forgetAllCopies = (): Promise<void> => clear(copies()).catch(() => undefined);

/** The page's copy; none when it no longer reads as the contract's shape (kept by an older build). */
async function recallCopy<T>(key: string, schema: ContractSchema<T>): Promise<DeviceCopy<T> | null> {
  const kept = await get<KeptCopy>(key, copies()).catch(() => undefined);
  if (kept === undefined) return null;
  if (isExpired(kept)) {
    await forgetCopy(key);
    return null;
  }
  if (typeof kept.shownAt !== 'string') return null;
  const parsed = schema.safeParse(kept.data);
  return parsed.success ? { data: parsed.data, shownAt: kept.shownAt } : null;
}

interface DeviceCopyOptions<T> {
  /** The contract's schema of the answer, which the copy must still match. */
  schema: ContractSchema<T>;
  /** The page shows the query's answer now (a page about to move to another address does not). */
  shown: boolean;
  /** An error that says the pass is gone for this guest: the copy is erased. */
  erases: (error: unknown) => boolean;
  /** Called with the copy as soon as it is read: what the page would need to show it (a chunk) is fetched meanwhile. */
  prepare?: (copy: T) => void;
  /** What of the answer the page shows with no network: only that is kept (still the schema's shape). */
  keep?: (answer: T) => T;
  /** The answer's own expiry (a pass's `expires`), ISO 8601; null when it has none. */
  expires?: (answer: T) => string | null;
}

/**
 * Keeps the answer the page shows under `key`, and reads the copy beside the query (so a failed
 * query for want of a network shows it at once): `copy` is what to show with its time when the
 * query failed so (null online, or with no copy), `pending` while it is still read. Back online,
 * the query is asked again and its answer replaces the copy.
 */
export function useDeviceCopy<T>(
  key: string | null,
  query: UseQueryResult<T>,
  { schema, shown, erases, prepare, keep, expires }: DeviceCopyOptions<T>,
) {
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
    if (key !== null && showing !== undefined) void keepCopy(key, keep ? keep(showing) : showing, expires?.(showing) ?? null);
  }, [key, showing, keep, expires]);
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

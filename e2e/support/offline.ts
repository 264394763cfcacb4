// The guest pages with no network, as the offline test and bench/offline.ts look at them: the
// service worker, the device copies (apps/web/src/lib/device-copy.ts) and Cache Storage.
import type { BrowserContext, Page } from 'playwright-core';

/** Waits until the page's service worker is activated (it registers after the page has loaded). */
export const workerReady = (page: Page) =>
  page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (worker && worker.state !== 'activated') {
      await new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve(null)));
    }
    return worker?.state ?? null;
  });

/** Everything the device keeps for the guest pages: the copies in IndexedDB (key and value). */
export const storedCopies = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ key: string; value: { shownAt: string; data: Record<string, unknown> } }[]>((resolve, reject) => {
        const open = indexedDB.open('boardwalk-guest');
        open.onerror = () => reject(open.error);
        open.onupgradeneeded = () => open.result.createObjectStore('shown');
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('shown').objectStore('shown');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () => {
            resolve(keys.result.map((key, i) => ({ key: String(key), value: values.result[i] })));
            db.close();
          };
          values.onerror = () => reject(values.error);
        };
      }),
  );

/** The URLs in every Cache Storage cache (the worker's precache). */
export const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });

/**
 * Reloads with no network until the card, its barcode graphic and the offline note are all on
 * screen; answers how long after the navigation started that was (the page's own clock). How
 * fast is measured by bench/offline.ts, not here (a test under load would only be flaky).
 */
export async function reloadOffline(page: Page, context: BrowserContext, card = 'article.pass-card'): Promise<number> {
  await context.setOffline(true);
  await page.reload({ waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    (selector) =>
      document.querySelector(`${selector} .pass-card__barcode svg`) && document.querySelector('[data-testid="offline-note"]')
        ? performance.now()
        : false,
    card,
    { polling: 'raf' },
  );
  return (await shown.jsonValue()) as number;
}

// The guest pages with no network, as the offline test and bench/offline.ts look at them: the
// service worker, the device copies (apps/web/src/lib/device-copy.ts) and Cache Storage.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';

const webDist = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));

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

/** A build's folder as the server would serve it (WEB_DIR), its entry script, and removal. */
export interface NextBuild {
  dir: string;
  /** The entry script's path in the build it replaces and in this one (/assets/index-….js). */
  oldEntry: string;
  entry: string;
  remove(): void;
}

/**
 * The next build of the app, made from the current one the way a new build differs from it: its
 * entry script has a new name (a new hash) and marks the page (`<html data-build="next">`), the
 * old one is gone, the pages name the new one, and the service worker's list names the new
 * entry with the pages' new revisions. The compressed twins of the changed files are left out
 * (the server then sends the files themselves).
 */
export function nextBuild(): NextBuild {
  const dir = mkdtempSync(join(tmpdir(), 'boardwalk-next-build-'));
  cpSync(webDist, dir, { recursive: true });
  const oldEntry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"/.exec(
    readFileSync(join(dir, 'index.html'), 'utf8'),
  )?.[1];
  if (!oldEntry) throw new Error('no entry script in the built index.html');
  const entry = oldEntry.replace(/\.js$/, '-next.js');
  const remove = (file: string) => ['', '.br', '.gz'].forEach((twin) => rmSync(join(dir, `${file}${twin}`), { force: true }));
  // A chunk that imports a renamed file names it in its content, so it is a new file too, and so
  // on (a lazy chunk imports what it shares from the entry): each is renamed, and every renamed
  // file names the others' new names.
  const newName = (file: string) => file.replace(/\.js$/, '-next.js');
  const renamed = new Map([[oldEntry, entry]]);
  const chunks = readdirSync(join(dir, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `/assets/${name}`);
  for (let grown = true; grown;) {
    grown = false;
    for (const chunk of chunks.filter((c) => !renamed.has(c))) {
      const text = readFileSync(join(dir, chunk), 'utf8');
      if ([...renamed.keys()].some((old) => text.includes(basename(old)))) {
        renamed.set(chunk, newName(chunk));
        grown = true;
      }
    }
  }
  const withNewNames = (text: string) =>
    [...renamed].reduce((result, [old, next]) => result.replaceAll(basename(old), basename(next)), text);
  for (const [old, next] of renamed) {
    const text = withNewNames(readFileSync(join(dir, old), 'utf8'));
    writeFileSync(join(dir, next), old === oldEntry ? `${text}\ndocument.documentElement.dataset.build = 'next';\n` : text);
    remove(old);
  }
  const pages = [
    'index.html',
    ...readdirSync(join(dir, 'shells'))
      .filter((name) => name.endsWith('.html'))
      .map((name) => `shells/${name}`),
  ];
  const revisions = new Map<string, string>();
  for (const page of pages) {
    const html = withNewNames(readFileSync(join(dir, page), 'utf8'));
    remove(page);
    writeFileSync(join(dir, page), html);
    revisions.set(page, createHash('md5').update(html).digest('hex'));
  }
  const worker = withNewNames(readFileSync(join(dir, 'service-worker.js'), 'utf8')).replace(
    /\{"revision":"[0-9a-f]+","url":"([\w/.-]+\.html)"\}/g,
    (whole, url: string) => (revisions.has(url) ? `{"revision":"${revisions.get(url)}","url":"${url}"}` : whole),
  );
  remove('service-worker.js');
  writeFileSync(join(dir, 'service-worker.js'), worker);
  return { dir, oldEntry, entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

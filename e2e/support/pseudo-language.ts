// A pseudo-language for the guest pages: the built English catalogue (its chunks, one per area,
// texts-en-<area>-….js) with every message wrapped in ⟦ ⟧, served in their place as the page asks
// for each. Every word a page takes from the catalogue then shows inside brackets; a word outside
// them was written somewhere else (hard-coded), unless it is data the server sent (a name, a
// product) or a number, a date or an amount that Intl wrote. A page that forgot to load an area
// shows the raw key, outside the brackets. It proves, too, that a language is a catalogue: the
// pages take this one without a line of code knowing it.
import type { Disposable, Page } from 'playwright-core';

export const OPEN = '⟦';
export const CLOSE = '⟧';

/** A compiled message (icu-minify: a string, or an array of parts) with the brackets around its whole text. */
function wrap(message: unknown): unknown {
  if (typeof message === 'string') return `${OPEN}${message}${CLOSE}`;
  if (Array.isArray(message)) return [OPEN, ...message, CLOSE];
  return Object.fromEntries(Object.entries(message as object).map(([key, value]) => [key, wrap(value)]));
}

/** A catalogue chunk's source (one area's compiled messages, its only export) rewritten in the pseudo-language. */
export async function pseudoChunk(path: string, source: string): Promise<string> {
  const exported = /export\s*\{\s*(\w+) as (\w+)\s*\}/.exec(source);
  if (!exported) throw new Error(`${path} exports no catalogue`);
  const module = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as Record<string, unknown>;
  return `var e=${JSON.stringify(wrap(module[exported[2]!]))};export{e as ${exported[2]}};`;
}

/** The English page's first catalogue chunk (common, from its preloads) in the pseudo-language: the test's check of the wrapping. */
export async function pseudoCatalogue(baseUrl: string): Promise<{ path: string; body: string }> {
  const page = await (await fetch(`${baseUrl}/?lang=en`)).text();
  const path = /<link rel="modulepreload" href="(\/assets\/texts-en-common-[^"]+\.js)">/.exec(page)?.[1];
  if (!path) throw new Error('the English page preloads no catalogue chunk');
  return { path, body: await pseudoChunk(path, await (await fetch(`${baseUrl}${path}`)).text()) };
}

/**
 * Serves the pseudo-language in place of English on this page: each English catalogue chunk,
 * wrapped as it arrives. The page's prerendered shell (English) is emptied once parsed,
 * before the app's scripts run (they run after the document turns "interactive"), so the app
 * renders afresh: hydrated, the English shell differed from the pseudo-language and React threw
 * it away, with whatever a test had typed into it meanwhile (a loaded run's lookup never left
 * the login page). The answer removes both, for a tab used again (forThisState).
 *
 * The chunks are rewritten through Chromium's Fetch domain, for their addresses only, rather
 * than with page.route: while any route is set, Playwright turns the page's HTTP cache off, and
 * every state then loaded the whole app from the server again.
 */
export async function usePseudoLanguage(page: Page): Promise<Disposable> {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', ({ requestId, request, responseStatusCode }) => {
    void (async () => {
      const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId });
      const pseudo = await pseudoChunk(request.url, base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
      await cdp.send('Fetch.fulfillRequest', {
        requestId,
        responseCode: responseStatusCode ?? 200,
        responseHeaders: [{ name: 'content-type', value: 'text/javascript' }],
        body: Buffer.from(pseudo).toString('base64'),
      });
    })().catch((error: unknown) => {
      // Left paused, the page would wait for the chunk until the test's timeout, saying nothing.
      console.error(`[pseudo-language] ${request.url} left in English: ${String(error)}`);
      void cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
    });
  });
  // The English catalogue chunks: the build names each texts-<language>-<area>-<hash>.js (apps/web/vite.config.ts).
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/assets/texts-en-*', requestStage: 'Response' }] });
  const emptyShell = await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') document.getElementById('root')?.replaceChildren();
    });
  });
  const dispose = async () => {
    await emptyShell.dispose();
    await cdp.detach().catch(() => undefined);
  };
  return { dispose, [Symbol.asyncDispose]: dispose };
}

/** Every text a guest can read or hear on the page: its visible text, and the names, descriptions and hints of its elements. */
export function readableTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = [document.body.innerText, document.title];
    for (const element of document.querySelectorAll('[aria-label], [alt], [title], [placeholder], [aria-valuetext]')) {
      for (const name of ['aria-label', 'alt', 'title', 'placeholder', 'aria-valuetext']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

/** What is left of a text once every bracketed message is taken out (innermost first: a message may hold another). */
export function outsideTheCatalogue(text: string): string {
  let rest = text;
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  return rest;
}

/** Month and day names and the day periods Intl writes in English dates. */
const DATE_WORDS = new Set(
  [
    ...Array.from({ length: 12 }, (_, month) => new Date(2026, month, 1)).flatMap((date) =>
      ['short', 'long'].map((month) => date.toLocaleString('en-US', { month: month as 'short' | 'long' })),
    ),
    ...Array.from({ length: 7 }, (_, day) => new Date(2026, 10, 22 + day)).flatMap((date) =>
      ['short', 'long'].map((weekday) => date.toLocaleString('en-US', { weekday: weekday as 'short' | 'long' })),
    ),
    'AM',
    'PM',
  ].map((word) => word.toLowerCase()),
);

/**
 * The words of a text that come neither from the catalogue nor from data: each word left outside
 * the brackets must be a number, a date's word, or appear in what the server answered.
 */
export function hardCodedWords(text: string, data: string): string[] {
  const known = data.toLowerCase();
  return (outsideTheCatalogue(text).match(/\p{L}[\p{L}'’-]*/gu) ?? []).filter((word) => {
    const lower = word.toLowerCase();
    return !DATE_WORDS.has(lower) && !known.includes(lower);
  });
}

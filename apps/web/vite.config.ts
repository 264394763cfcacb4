import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { purgeCSSPlugin as purgeCss } from '@fullhuman/postcss-purgecss';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import compile from 'icu-minify/compile';
import type { Plugin as PostcssPlugin } from 'postcss';
import { defineConfig, type Plugin, type ViteBuilder } from 'vite';
import { VitePWA, type VitePluginPWAAPI } from 'vite-plugin-pwa';

/** The guest entry must stay small on a phone on park Wi-Fi (e2e/bundle-size.test.ts checks it). */
export const INITIAL_JS_LIMIT_BYTES = 150 * 1024;

/**
 * Measures the JavaScript a guest page loads before it can render: the entry chunk plus
 * every chunk it imports statically (the ones Vite modulepreloads), gzipped. Lazy routes
 * (React.lazy, route `lazy`) are not counted. Prints the figure and writes dist/bundle-size.json.
 */
function initialBundleSize(): Plugin {
  return {
    name: 'boardwalk:initial-bundle-size',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    writeBundle({ dir: outDir = 'dist' }, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((item) => item.type === 'chunk')
          .map((chunk) => [chunk.fileName, chunk]),
      );
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || initial.has(fileName)) return;
        initial.add(fileName);
        chunk.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const files = [...initial].map((fileName) => {
        const chunk = chunks.get(fileName);
        const code = chunk?.code ?? '';
        // The biggest contributors by package, to see what to split when the figure grows.
        const packages = new Map<string, number>();
        for (const [id, info] of Object.entries(chunk?.modules ?? {})) {
          const name =
            /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? (id.includes('/packages/contract/') ? '@boardwalk/contract' : 'app');
          packages.set(name, (packages.get(name) ?? 0) + info.renderedLength);
        }
        const largest = [...packages]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([name, bytes]) => ({ name, bytes }));
        return { fileName, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, largest };
      });
      const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
      const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
      const report = { initialJs: { gzipBytes, bytes, files }, limitGzipBytes: INITIAL_JS_LIMIT_BYTES };
      writeFileSync(join(outDir, 'bundle-size.json'), `${JSON.stringify(report, null, 2)}\n`);
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      console.log(
        `\ninitial guest JavaScript: ${kib(gzipBytes)} gzipped (${kib(bytes)} raw) in ${files.length} file(s); limit ${kib(INITIAL_JS_LIMIT_BYTES)}\n`,
      );
    },
  };
}

/**
 * Writes a .br and a .gz twin of every text file of the build (512 bytes or more: the pages
 * too), at the highest levels since it is done once; the server sends them to clients that
 * accept them (@fastify/static preCompressed). A dozen lines of node:zlib rather than one
 * more plugin. Runs last (buildApp), after the prerendered pages are written.
 */
function precompress(outDir: string) {
  for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const content = readFileSync(path);
    if (content.length < 512) continue;
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

/** A file of the guest pages' catalogue: one area's words in one language (@boardwalk/contract/i18n/<language>/pages/). */
const PAGE_TEXTS_FILE = /\/packages\/contract\/src\/i18n\/[^/]+\/pages\/[^/]+\.ts$/;
/**
 * The guest pages' messages compiled at build time (icu-minify, as next-intl's `precompile`
 * does): each catalogue file becomes its messages' compact form, and use-intl formats them with
 * its format-only runtime (the alias below), so no ICU parser reaches a phone. A catalogue file
 * is a plain object (type imports only), evaluated once its types are stripped.
 */
function precompiledMessages(): Plugin {
  const compileAll = (value: unknown): unknown =>
    typeof value === 'string'
      ? compile(value)
      : Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, compileAll(v)]));
  return {
    name: 'boardwalk:precompiled-messages',
    enforce: 'post',
    async transform(code, id) {
      if (!PAGE_TEXTS_FILE.test(id)) return null;
      if (/^\s*import\s(?!type\b)/m.test(code)) throw new Error(`${id}: a catalogue file imports nothing but types`);
      const { default: messages } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { default: unknown };
      return { code: `export default ${JSON.stringify(compileAll(messages))};\n`, map: null };
    },
  };
}

/**
 * Each catalogue chunk of the client build by language and area file (`{ "es": { "stored-value":
 * "assets/texts-es-stored-value-….js" } }`), for the prerendered pages to preload; written by the client build.
 */
const LANGUAGE_CHUNKS = resolve(import.meta.dirname, 'node_modules/.cache/boardwalk-language-chunks.json');
/** A catalogue file's language and area file name (stored-value), from its module id. */
const pageTextsOf = (id: string | null | undefined) => {
  const match = /\/packages\/contract\/src\/i18n\/([^/]+)\/pages\/([^/]+)\.ts$/.exec(id ?? '');
  return match ? { language: match[1] ?? '', area: match[2] ?? '' } : null;
};
/** An area's key (storedValue, as PageTexts names it) as its file's name (stored-value). */
const areaFile = (area: string) => area.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
/**
 * The name of a chunk of the client build: a catalogue file's says its language and area
 * (texts-es-stored-value-….js: the states test's pseudo-language and a reader of the network
 * panel tell them apart), every other one Vite's default.
 */
function chunkFileName(chunk: { facadeModuleId: string | null }): string {
  const texts = pageTextsOf(chunk.facadeModuleId);
  return texts ? `assets/texts-${texts.language}-${texts.area}-[hash].js` : 'assets/[name]-[hash].js';
}

/** Where the build's server entry (src/prerender.tsx) is bundled, used once and removed. */
const PRERENDER_OUT = resolve(import.meta.dirname, 'node_modules/.cache/boardwalk-prerender');
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * The guest pages' first screens (GUEST_SHELLS of @boardwalk/contract/guest-shells, through the
 * prerender entry: the config itself cannot import TypeScript packages): the built index.html with
 * the real components' markup in its root (React's prerender, through the `ssr` build of
 * src/prerender.tsx), then the CSS that markup uses inlined in the head and the whole
 * stylesheet moved after the content (beasties: a preload in the head, the link at the end of
 * the body, no script), so the first paint waits for neither. The inlined styles' SHA-256
 * hashes go to shells/csp.json: the server allows exactly those under its CSP (style-src).
 */
async function prerenderShells(outDir: string, renderRootUrl: string) {
  const { GUEST_SHELLS, LANGUAGES, BASE_AREAS, shellFile, headTexts, renderRoot } = (await import(renderRootUrl)) as {
    GUEST_SHELLS: Record<string, { renderAt: string | null; areas: readonly string[] }>;
    LANGUAGES: readonly string[];
    BASE_AREAS: readonly string[];
    shellFile: (shell: string, language: string) => string;
    headTexts: (language: string) => Promise<{ title: string; description: string }>;
    renderRoot: (url: string, language: string) => Promise<string>;
  };
  const template = readFileSync(join(outDir, 'index.html'), 'utf8');
  if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
  const languageChunks = JSON.parse(readFileSync(LANGUAGE_CHUNKS, 'utf8')) as Record<string, Record<string, string>>;
  /** A shell's catalogue chunks in a language: common, errors and its page's areas. */
  const textChunks = (language: string, areas: readonly string[]) =>
    [...BASE_AREAS, ...areas].map((area) => {
      const chunk = languageChunks[language]?.[areaFile(area)];
      if (!chunk) throw new Error(`no catalogue chunk for ${language} ${area} in ${LANGUAGE_CHUNKS}`);
      return chunk;
    });
  // The offline pages (the pass, a stored-value card) load their areas before they render: the
  // service worker keeps those chunks in every language (a guest may switch offline).
  const offlineFiles = new Set(JSON.parse(readFileSync(OFFLINE_LIST, 'utf8')) as string[]);
  for (const language of LANGUAGES) {
    for (const shell of OFFLINE_SHELLS) textChunks(language, GUEST_SHELLS[shell]?.areas ?? []).forEach((chunk) => offlineFiles.add(chunk));
  }
  writeFileSync(OFFLINE_LIST, JSON.stringify([...offlineFiles]));
  const beasties = new Beasties({ path: outDir, publicPath: '/', pruneSource: false, reduceInlineStyles: false, logLevel: 'warn' });
  const styleHashes = new Set<string>();
  for (const language of LANGUAGES) {
    const { title, description } = await headTexts(language);
    for (const [shell, { renderAt, areas }] of Object.entries(GUEST_SHELLS)) {
      // The page's language, its head in it, and its areas' catalogue chunks fetched beside the entry.
      const preloads = textChunks(language, areas).map((chunk) => `<link rel="modulepreload" href="/${chunk}">`);
      const page = template
        .replace('<html lang="en">', `<html lang="${language}">`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>\n    ${preloads.join('\n    ')}`)
        .replace(/(<meta name="description" content=")[^"]*"/, `$1${escapeHtml(description)}"`);
      let html = page;
      if (renderAt !== null) {
        const markup = await renderRoot(renderAt, language);
        // Inline style attributes would be refused by the CSP (style-src without 'unsafe-inline').
        if (/\sstyle="/.test(markup)) throw new Error(`the prerendered ${renderAt} has a style attribute, which the CSP refuses`);
        // The site settings (brand name, support email) every guest page shows: asked for at once,
        // beside the scripts, for the app's own fetch of /api/site/ (lib/site.ts) to take.
        const withSettings = page.replace('</title>', `</title>\n    <link rel="preload" href="/api/site/" as="fetch" crossorigin>`);
        html = await beasties.process(withSettings.replace(ROOT_ELEMENT, `<div id="root">${markup}</div>`));
        for (const [, css = ''] of html.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
          styleHashes.add(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
        }
      }
      const file = shellFile(shell, language);
      mkdirSync(dirname(join(outDir, file)), { recursive: true });
      writeFileSync(join(outDir, file), html);
    }
  }
  writeFileSync(join(outDir, 'shells/csp.json'), `${JSON.stringify({ styleSrc: [...styleHashes] }, null, 2)}\n`);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * What the guest pages need with no network, by the chunks of the client build: the entry and
 * every chunk it imports statically, and the lazy chunks a pass shown offline loads (the barcode
 * graphic, the stored-value page) with theirs. Every other lazy chunk (the staff app, the camera
 * and face code, the loyalty pages) is left out: a guest's phone does not download the back
 * office to keep a pass. Filled when the client build writes its bundle; read by the service
 * worker's manifest (serviceWorker below) through OFFLINE_LIST.
 */
const OFFLINE_CHUNKS = /\/src\/(main\.tsx|guest\/ticket\/barcode-graphic\.tsx|guest\/stored-value\/stored-value-page\.tsx)$/;
/** The shells whose pages show offline: their catalogue chunks join the list when the shells are written (prerenderShells). */
const OFFLINE_SHELLS = ['login', 'pass', 'storedValue'];
/** Written by the client build, read when the worker is built (Vite evaluates this file more than once: no shared variable). */
const OFFLINE_LIST = resolve(import.meta.dirname, 'node_modules/.cache/boardwalk-offline-files.json');
function offlineChunks(): Plugin {
  return {
    name: 'boardwalk:offline-chunks',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
      const offlineFiles = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || offlineFiles.has(fileName)) return;
        offlineFiles.add(fileName);
        chunk.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.facadeModuleId && OFFLINE_CHUNKS.test(chunk.facadeModuleId)) visit(chunk.fileName);
      if (offlineFiles.size < 3) throw new Error(`the offline chunks were not found (${[...offlineFiles].join(', ')})`);
      mkdirSync(dirname(OFFLINE_LIST), { recursive: true });
      writeFileSync(OFFLINE_LIST, JSON.stringify([...offlineFiles]));
      const languageChunks: Record<string, Record<string, string>> = {};
      for (const chunk of chunks.values()) {
        const texts = pageTextsOf(chunk.facadeModuleId);
        if (texts) (languageChunks[texts.language] ??= {})[texts.area] = chunk.fileName;
      }
      writeFileSync(LANGUAGE_CHUNKS, JSON.stringify(languageChunks));
    },
  };
}

/**
 * The guest pages' service worker (src/service-worker/service-worker.ts) through vite-plugin-pwa:
 * `injectManifest` bundles it with Workbox's modules inside (no importScripts, no CDN) and writes
 * the list of files it keeps: the offline chunks above, the stylesheet, the public files, the
 * icons and the prerendered pages. The plugin writes the worker when the client build closes,
 * before the prerendered pages exist; its closeBundle hook is taken out here and buildApp asks
 * for the worker (the plugin's API, generateSW) once they are written, so their true content is
 * in the list. The web manifest is the server's (the park's name is a setting:
 * apps/api/src/platform/web.plugin.ts); the worker is registered by src/main.tsx after load.
 */
function serviceWorker(): { plugins: Plugin[]; api: () => VitePluginPWAAPI } {
  const plugins = VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/service-worker',
    filename: 'service-worker.ts',
    injectRegister: false,
    manifest: false,
    // The icons of every size the platforms ask for (@vite-pwa/assets-generator's minimal 2023
    // preset: 64, 192, 512, a maskable 512, Apple's 180 and favicon.ico), drawn from the logo at
    // build time, with their <link> tags in the pages' head.
    pwaAssets: { image: 'public/logo.svg', preset: 'minimal-2023', htmlPreset: '2023', injectThemeColor: false },
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg,png,ico}'],
      globIgnores: ['service-worker.js', 'models/**', 'staff-*'],
      manifestTransforms: [
        (entries) => {
          const offlineFiles = new Set(JSON.parse(readFileSync(OFFLINE_LIST, 'utf8')) as string[]);
          return {
            manifest: entries.filter(({ url }) => !url.startsWith('assets/') || !url.endsWith('.js') || offlineFiles.has(url)),
            warnings: [],
          };
        },
      ],
    },
  }).map((plugin) => ({
    ...plugin,
    applyToEnvironment: (environment: { name: string }) => environment.name === 'client',
    ...(plugin.name === 'vite-plugin-pwa:build' && { closeBundle: undefined }),
  }));
  const api = () => {
    const found = plugins.find((plugin) => plugin.name === 'vite-plugin-pwa')?.api as VitePluginPWAAPI | undefined;
    if (!found) throw new Error('vite-plugin-pwa has no plugin named vite-plugin-pwa');
    return found;
  };
  return { plugins, api };
}
const pwa = serviceWorker();

/** The client, then the prerender entry, then the pages it renders, the service worker, then their compressed twins. */
async function buildApp(builder: ViteBuilder) {
  const { client, ssr } = builder.environments;
  if (!client || !ssr) throw new Error('vite.config.ts declares the client and ssr environments');
  await builder.build(client);
  await builder.build(ssr);
  const outDir = resolve(client.config.root, client.config.build.outDir);
  const entry = readdirSync(PRERENDER_OUT).find((name) => /^prerender\.m?js$/.test(name));
  if (!entry) throw new Error(`no prerender entry in ${PRERENDER_OUT}`);
  await prerenderShells(outDir, pathToFileURL(join(PRERENDER_OUT, entry)).href);
  rmSync(PRERENDER_OUT, { recursive: true, force: true });
  await (await pwa.api().pwaAssetsGenerator())?.generate();
  await pwa.api().generateSW();
  precompress(outDir);
}

/**
 * Bootstrap's classes the app uses, and nothing else: our sources are scanned for class
 * names; react-bootstrap builds its classes from a component prefix (`${prefix}-dialog`,
 * `bg-${variant}`), so the prefixes of the components we import and the theme variants are
 * kept whole.
 */
const purgeBootstrap = purgeCss({
  content: ['index.html', 'src/**/*.{ts,tsx}'],
  safelist: {
    standard: [
      /^(btn|badge|container|form|input-group|invalid|valid|modal|nav|navbar|spinner|tab|table|toast|fade|show|showing|hiding|collaps|active|disabled|visually-hidden|text-bg|is-|was-validated)/,
      // The theme variants the app passes (variant, bg); `info` is none of them.
      /-(primary|secondary|success|danger|warning|light|dark|body|white|black)(-|$)/,
      // The placement classes react-bootstrap's ToastContainer builds from its position prop:
      // purged, the staff toasts sat below the page's end instead of on the screen.
      /^(top|bottom|start|end)-(0|50|100)$/,
      /^translate-middle/,
      // The staff navigation's responsive offcanvas (a side navigation on wide screens, a menu on
      // phones): its one breakpoint (lg) and placement (start) only, not every breakpoint's copy.
      /^offcanvas(-lg|-start|-header|-title|-body|-backdrop)?$/,
    ],
    greedy: [
      /^btn/,
      /^form-/,
      /^modal/,
      /^nav/,
      /^toast/,
      /^table/,
      /^was-validated/,
      /^is-/,
      /^offcanvas(-lg|-start|-header|-title|-body|-backdrop)?$/,
    ],
    variables: [/.*/],
  },
  variables: false,
  keyframes: true,
}) as PostcssPlugin;
/** Only Bootstrap's stylesheet is purged: other packages' CSS (react-image-crop) names classes their code builds. */
const bootstrapInUse: PostcssPlugin = {
  postcssPlugin: 'boardwalk:bootstrap-in-use',
  OnceExit(root, helpers) {
    if (root.source?.input.file?.includes('/node_modules/bootstrap/')) return purgeBootstrap.OnceExit?.(root, helpers);
  },
};

export default defineConfig({
  plugins: [react(), precompiledMessages(), initialBundleSize(), offlineChunks(), ...pwa.plugins],
  // The formatter of precompiled messages (precompiledMessages above): no ICU parser in the bundle.
  resolve: { alias: [{ find: /^use-intl\/format-message$/, replacement: 'use-intl/format-message/format-only' }] },
  css: { postcss: { plugins: [bootstrapInUse] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The polyfill would be one more script for browsers that all support modulepreload.
    modulePreload: { polyfill: false },
    // One stylesheet: the prerendered pages load it after their content (prerenderShells), and
    // a route's own CSS, injected into the head when its chunk loads, would then come before
    // Bootstrap and lose to it. Together they are a few KiB more than the entry's CSS.
    cssCodeSplit: false,
    rolldownOptions: { output: { chunkFileNames: chunkFileName } },
  },
  // `vite build` builds the app (client and ssr environments) through buildApp above.
  builder: { buildApp },
  environments: {
    // Bundled whole: react-bootstrap's per-component imports (react-bootstrap/Button) are folders
    // Node's ESM cannot load. Left out: the camera, face and image code of routes no shell renders.
    ssr: {
      resolve: { noExternal: true, external: ['sharp', '@vladmandic/face-api', '@ericblade/quagga2'] },
      build: { ssr: 'src/prerender.tsx', outDir: PRERENDER_OUT, emptyOutDir: true, copyPublicDir: false },
    },
  },
  server: {
    // /app/login/ and /app/logout/ are the staff session calls (a regex: not /apple-touch-icon...).
    proxy: { '/api': 'http://localhost:3000', '^/app/': 'http://localhost:3000' },
  },
});

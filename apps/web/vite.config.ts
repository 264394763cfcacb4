import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { purgeCSSPlugin as purgeCss } from '@fullhuman/postcss-purgecss';
import react from '@vitejs/plugin-react';
import type { Plugin as PostcssPlugin } from 'postcss';
import { defineConfig, type Plugin } from 'vite';

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
 * Writes a .br and a .gz twin of every text file of the build (512 bytes or more: index.html too), at the
 * highest levels since it is done once; the server sends them to clients that accept them
 * (@fastify/static preCompressed). A dozen lines of node:zlib rather than one more plugin.
 */
function precompress(): Plugin {
  return {
    name: 'boardwalk:precompress',
    apply: 'build',
    enforce: 'post',
    writeBundle({ dir: outDir = 'dist' }) {
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
    },
  };
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
      /-(primary|secondary|success|danger|warning|info|light|dark|body|white|black)(-|$)/,
    ],
    greedy: [/^btn/, /^form-/, /^modal/, /^nav/, /^toast/, /^table/, /^was-validated/, /^is-/],
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
  plugins: [react(), initialBundleSize(), precompress()],
  css: { postcss: { plugins: [bootstrapInUse] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The polyfill would be one more script for browsers that all support modulepreload.
    modulePreload: { polyfill: false },
  },
  server: {
    // /app/login/ and /app/logout/ are the staff session calls (a regex: not /apple-touch-icon...).
    proxy: { '/api': 'http://localhost:3000', '^/app/': 'http://localhost:3000' },
  },
});

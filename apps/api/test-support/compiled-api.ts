// Test support: the API compiled to JavaScript (scripts/build-api.mjs), as `npm start` runs it,
// for the tests that start it as a process of its own (api-process.ts, the browser tests'
// servers). Through tsx each start compiled the sources again: 4.2 to 5.8 s of CPU to /readyz
// against 2.7 to 2.8 s compiled (2026-11-30). As a Vitest global setup, it builds the API when
// a source is newer than the build (`npm test` builds first; a single file run after an edit).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The compiled entry point of src/<script>, e.g. apps/api/dist/server.js. */
export const compiledScript = (script: 'server' | 'worker') => join(repoRoot, `apps/api/dist/${script}.js`);

/** Node's arguments to run a compiled script: @boardwalk/* resolve to their dist/ (package.json "exports"). */
export const compiledArgs = (script: 'server' | 'worker') => ['--conditions=compiled', '--enable-source-maps', compiledScript(script)];

/** The newest modification time under these paths (files or folders). */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      // Not sources: the service worker's typecheck leaves its tsbuildinfo in src (npm test runs
      // the typecheck after the build).
      for (const entry of readdirSync(path))
        if (!['node_modules', 'dist'].includes(entry) && !entry.endsWith('.tsbuildinfo')) visit(join(path, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/** Builds the API (scripts/build-api.mjs) when apps/api/dist is missing or older than a source. */
export function buildApiIfStale(): void {
  const sources = ['apps/api/src', 'packages/db/src', 'packages/db/migrations', 'packages/contract/src'].map((path) =>
    join(repoRoot, path),
  );
  const built = compiledScript('server');
  if (existsSync(built) && statSync(built).mtimeMs > newestMtime(sources)) return;
  console.log('[tests] building the API (apps/api/dist is missing or older than its sources)');
  const result = spawnSync(process.execPath, ['scripts/build-api.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`node scripts/build-api.mjs failed with status ${result.status}`);
}

export default function setup(): void {
  buildApiIfStale();
}

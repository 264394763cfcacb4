#!/usr/bin/env node
// The API as JavaScript, for production (`npm start`, `npm run worker`): the contract, the
// database package and the API compiled by tsc into each one's dist/, plus the data files the
// API reads beside its modules (*.json). Production runs `node --conditions=compiled`, which
// makes @boardwalk/* resolve to dist/ (their package.json "exports"); development, tests and
// benches run the TypeScript sources through tsx and Vitest.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

// --noCheck: tsc only emits here, the same files as with its checks (compared byte for byte):
// the types are `npm run typecheck`'s to check (in `npm test` beside the lint and this build),
// and checking the three projects again cost 22 s of CPU against 8 s.
for (const project of ['packages/contract', 'packages/db', 'apps/api']) {
  rmSync(join(project, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', join(project, 'tsconfig.build.json'), '--noCheck'], {
    stdio: 'inherit',
  });
}
const source = 'apps/api/src';
for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
  const file = join(entry.parentPath ?? entry.path, entry.name);
  copyFileSync(file, join('apps/api/dist', relative(source, file)));
}

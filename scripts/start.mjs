#!/usr/bin/env node
// `npm start` (the server): install, build the web app and the API when their sources changed
// since the last build (build-stamp.mjs: always on a fresh clone, never when nothing changed),
// then run the compiled JavaScript (the server migrates and loads demo data itself).
// `npm run worker` (a delivery worker) runs what is built, building only when nothing is: a
// worker started beside a running server must not rebuild the folders that server runs from.
// Both run on the project's Node.js (project-node.mjs), which the install brings.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { inputsHash, needsBuild, STAMP_FILE, writeStamp } from './build-stamp.mjs';
import { useProjectNode } from './project-node.mjs';

const worker = process.argv[2] === 'worker';
const entry = worker ? 'apps/api/dist/worker.js' : 'apps/api/dist/server.js';

const step = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('node_modules/.package-lock.json')) step('npm', ['ci', '--no-audit', '--no-fund']);
await useProjectNode();
const root = process.cwd();
const hash = inputsHash(root);
if (worker ? !existsSync(entry) : needsBuild({ root, hash })) {
  // The old stamp goes first: a build that fails part-way (after a package's output was removed)
  // must not leave a stamp that sources reverted to their old state would match.
  rmSync(STAMP_FILE, { force: true });
  step('npm', ['run', '--silent', 'build']);
  writeStamp({ root, hash });
} else if (!worker) {
  console.log('The build is current (its sources are unchanged since it was made): not building.');
}
// The compiled server is the deployed one: NODE_ENV=production (closed defaults such as
// /metrics without METRICS_TOKEN) unless NODE_ENV is set. Not for the install and build
// above: npm ci would leave out the devDependencies the build needs.
step(process.execPath, ['--conditions=compiled', '--enable-source-maps', entry], {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV || 'production',
});

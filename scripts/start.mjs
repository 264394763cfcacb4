#!/usr/bin/env node
// `npm start` (the server): install, build the web app and the API, then run the compiled
// JavaScript (the server migrates and loads demo data itself). `npm run worker` (a delivery
// worker) runs what is built, building only when nothing is: a worker started beside a
// running server must not rebuild the folders that server runs from.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const worker = process.argv[2] === 'worker';
const entry = worker ? 'apps/api/dist/worker.js' : 'apps/api/dist/server.js';

const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('node_modules/.package-lock.json')) step('npm', ['ci', '--no-audit', '--no-fund']);
if (!worker || !existsSync(entry)) step('npm', ['run', '--silent', 'build']);
step(process.execPath, ['--conditions=compiled', '--enable-source-maps', entry]);

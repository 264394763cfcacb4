#!/usr/bin/env node
// `npm start` (the server) and `npm run worker` (a delivery worker): install, build the web
// app and the API, then run the compiled JavaScript (the server migrates and loads demo data itself).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const entry = process.argv[2] === 'worker' ? 'apps/api/dist/worker.js' : 'apps/api/dist/server.js';

const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('node_modules/.package-lock.json')) step('npm', ['ci', '--no-audit', '--no-fund']);
step('npm', ['run', '--silent', 'build']);
step(process.execPath, ['--conditions=compiled', '--enable-source-maps', entry]);

#!/usr/bin/env node
// `npm start`: install, build, then serve (the server migrates and loads demo data itself).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('node_modules/.package-lock.json')) step('npm', ['ci', '--no-audit', '--no-fund']);
step('npm', ['run', '--silent', 'build']);
step('node', ['--import', 'tsx', 'apps/api/src/server.ts']);

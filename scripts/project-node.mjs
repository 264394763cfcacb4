// The project runs on the Node.js that package.json pins (the `node` devDependency, the npm
// package that ships the runtime and links it as node_modules/.bin/node; .nvmrc names the same
// version). A script started by an older Node runs itself again with that one, and every
// child it spawns (npm, npx, vitest, tsx) finds it first on PATH.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The oldest Node.js major the project runs on (package.json engines). */
const MINIMUM_MAJOR = 24;

/**
 * Resolves when this process runs on Node.js MINIMUM_MAJOR or newer. On an older one it
 * never resolves: it runs the same script with node_modules/.bin/node and exits with its
 * status. Call it after `npm ci`, which is what links that runtime.
 */
export function useProjectNode() {
  const bin = path.resolve('node_modules/.bin');
  process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
  if (Number(process.versions.node.split('.')[0]) >= MINIMUM_MAJOR) {
    console.log(`Node.js ${process.version} (${process.execPath})`);
    return Promise.resolve();
  }
  const node = path.join(bin, 'node');
  if (!existsSync(node)) {
    console.error(`Node.js ${process.version} is older than ${MINIMUM_MAJOR} and ${node} is missing: run npm ci first.`);
    process.exit(1);
  }
  // The child leads a process group of its own, and a signal sent to this process (Ctrl+C from
  // the terminal, a SIGTERM from a supervisor) reaches that whole group once: the script and
  // the server it runs.
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', detached: true });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group has already exited.
      }
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise(() => undefined);
}

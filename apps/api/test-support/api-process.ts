// Test support: the server (or a worker) as a real process of its own, compiled as `npm start`
// runs it (compiled-api.ts, the process projects' global setup), on a free port, ready when
// /readyz answers (a worker: when it says its delivery worker runs).
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { compiledArgs } from './compiled-api.ts';
import { freePort } from './free-port.ts';

export interface ApiProcess {
  child: ChildProcess;
  output: () => string;
  url: string;
}

/** Starts the server or a worker with the environment given (beside this process's own), and waits until it is ready. */
export async function startApiProcess(script: 'server' | 'worker', env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, compiledArgs(script), {
    env: { ...(process.env as Record<string, string>), PORT: String(port), HOST: '127.0.0.1', ...env },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  if (script === 'server') {
    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ready = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    }
    expect(ready, output).toBe(true);
  } else {
    await expect.poll(() => output, { timeout: 30_000 }).toContain('delivery worker is running');
  }
  return { child, output: () => output, url };
}

/** Kills the process with SIGKILL and waits until it is gone. */
export async function killApiProcess(process: ApiProcess): Promise<void> {
  const exited = new Promise((resolve) => process.child.once('exit', resolve));
  process.child.kill('SIGKILL');
  await exited;
}

// Test support: a free TCP port on loopback for a server process a test or bench starts.
//
// Not the kernel's pick (listen on port 0): that comes from the ephemeral range (Linux
// 32768-60999), where the kernel also takes the local port of every outgoing connection, and a
// server given it took 50 s to start on a slow machine, long enough for one of the browser's or
// the test's own connections to hold it (EADDRINUSE at listen, a run of 2026-11-30). A random port
// below that range (and below macOS' and Windows' 49152) is only ever taken by a listener, and is
// checked free here first.
import { createServer } from 'node:net';

const LOWEST = 20_000;
const HIGHEST = 32_767;

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} on 127.0.0.1 in 100 tries`);
}

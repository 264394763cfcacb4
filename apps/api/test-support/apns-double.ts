// Test support: a local APNs double, HTTP/2 over TLS asking for the client certificate. It
// records every push and answers 200, or what `answer` says for a push token.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { constants, createSecureServer, type Http2Session, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface Push {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  clientSubject: string | undefined;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface ApnsAnswer {
  status: number;
  reason?: string;
}

/**
 * 'hang': the push is recorded and never answered (a slow APNs, or a process that dies
 * meanwhile); a promise: answered when it settles. The double takes `maxConcurrentStreams`
 * streams at once on a connection: 500, as APNs does. With `goAwayAfter`, the first connection
 * goes away at its stream number goAwayAfter + 1, its GOAWAY naming the one before as the last
 * it handles (as APNs does when it closes a connection): that stream and the ones after it are
 * refused unprocessed, and not recorded.
 */
export async function startApnsDouble(
  dir: string,
  answer: (pushToken: string) => ApnsAnswer | 'hang' | Promise<ApnsAnswer> = () => ({ status: 200 }),
  { maxConcurrentStreams = 500, goAwayAfter }: { maxConcurrentStreams?: number; goAwayAfter?: number } = {},
) {
  const key = join(dir, 'apns-key.pem');
  const cert = join(dir, 'apns-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=apns.test',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const pushes: Push[] = [];
  // The client certificate's subject, read once per connection (as APNs authenticates a
  // connection, not each push): reading it again for every stream cost a quarter of a drain's CPU.
  const subjects = new WeakMap<TLSSocket, string | undefined>();
  const subjectOf = (socket: TLSSocket | undefined) => {
    if (!socket) return undefined;
    if (!subjects.has(socket)) {
      const peer = socket.getPeerCertificate();
      subjects.set(socket, peer?.subject ? JSON.stringify(peer.subject) : undefined);
    }
    return subjects.get(socket);
  };
  const server = createSecureServer({
    key: await readFile(key),
    cert: await readFile(cert),
    requestCert: true,
    rejectUnauthorized: false,
    settings: { maxConcurrentStreams },
  });
  let firstSession: Http2Session | undefined;
  let firstSessionStreams = 0;
  server.on('stream', (stream, headers) => {
    const session = stream.session!;
    firstSession ??= session;
    if (goAwayAfter !== undefined && session === firstSession && ++firstSessionStreams > goAwayAfter) {
      // Refused by the GOAWAY: the client is told so (REFUSED_STREAM), the stream here errs.
      stream.on('error', () => undefined);
      if (firstSessionStreams === goAwayAfter + 1) session.goaway(constants.NGHTTP2_NO_ERROR, stream.id! - 2);
      return;
    }
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => void (body += chunk));
    stream.on('end', () => {
      const path = String(headers[':path']);
      pushes.push({
        path,
        headers,
        body,
        clientSubject: subjectOf(stream.session?.socket as TLSSocket | undefined),
        at: performance.now(),
      });
      const answered = answer(path.replace('/3/device/', ''));
      if (answered === 'hang') return;
      void Promise.resolve(answered).then(({ status, reason }) => {
        if (stream.closed) return;
        if (status === 200) {
          stream.respond({ ':status': 200, 'apns-id': '00000000-0000-0000-0000-000000000001' });
          stream.end();
        } else {
          stream.respond({ ':status': status, 'content-type': 'application/json' });
          stream.end(JSON.stringify({ reason: reason ?? 'InternalServerError', timestamp: Date.now() }));
        }
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, pushes, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caFile: cert };
}

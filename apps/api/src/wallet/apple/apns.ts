// Apple Push Notification service, as PassKit uses it: an empty push to a device's push
// token with the pass type id as topic tells the device to ask the web service what changed.
// One interface, one real adapter over node:http2 with TLS client authentication by the pass
// type certificate. (@parse/node-apn was considered: its endpoint is chosen by a production
// flag and its `ca` option replaces the trusted roots instead of adding to them, while the
// push itself is a single empty HTTP/2 POST.)
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { rootCertificates } from 'node:tls';
import pLimit from 'p-limit';

export type PushOutcome = 'sent' | 'unregistered' | 'failed';

export interface ApnsClient {
  /** Pushes the empty PassKit notification to one device; 'unregistered' when APNs answers 410. */
  push(pushToken: string): Promise<{ outcome: PushOutcome; status?: number; reason?: string }>;
  close(): Promise<void>;
}

export interface Http2ApnsOptions {
  /** https://api.push.apple.com in production (config.apple.apnsUrl). */
  url: string;
  /** The pass type id: the apns-topic of every push. */
  topic: string;
  certPem: string;
  keyPem: string;
  /** An extra CA to trust besides the usual roots (config.apple.apnsCaFile). */
  extraCaPem?: string | undefined;
  timeoutMs?: number;
}

/** Push tokens are hex strings; anything else never reaches the request path. */
const PUSH_TOKEN = /^[0-9a-fA-F]{8,200}$/;

/** Streams at once until APNs's SETTINGS say how many it takes (what Node assumes meanwhile). */
const STREAMS_BEFORE_SETTINGS = 100;

export function createHttp2ApnsClient(options: Http2ApnsOptions): ApnsClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let session: ClientHttp2Session | undefined;
  // A push waits here for a stream APNs allows (its SETTINGS: 500 at once, fewer after rejected
  // pushes), not in the HTTP/2 client, which would hold it too but with its timeout already
  // running: a push is timed from when it is sent.
  const streams = pLimit(STREAMS_BEFORE_SETTINGS);

  const open = () => {
    if (session && !session.closed && !session.destroyed) return session;
    const s = connect(options.url, {
      cert: options.certPem,
      key: options.keyPem,
      ca: options.extraCaPem ? [...rootCertificates, options.extraCaPem] : undefined,
    });
    s.on('remoteSettings', ({ maxConcurrentStreams }) => {
      if (maxConcurrentStreams) streams.concurrency = maxConcurrentStreams;
    });
    s.on('error', () => s.destroy());
    s.on('goaway', () => retire(s));
    // An idle connection must not keep the process alive.
    s.unref();
    session = s;
    return s;
  };

  return {
    push(pushToken) {
      if (!PUSH_TOKEN.test(pushToken)) return Promise.resolve({ outcome: 'failed', reason: 'BadDeviceToken' });
      return streams(() => send(pushToken));
    },
    async close() {
      const s = session;
      session = undefined;
      // A session destroyed by a connection error is not "closed", and close() would never call back.
      if (s && !s.closed && !s.destroyed) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };

  /** A session APNs is done with: no push goes on it any more, and it closes once its answers are in. */
  function retire(s: ClientHttp2Session) {
    if (session === s) session = undefined;
    if (!s.closed && !s.destroyed) s.close();
  }

  /**
   * One push. A stream APNs refused unprocessed (REFUSED_STREAM: it went away, its GOAWAY
   * naming an earlier stream as the last it handles, or it took no more streams) is sent once
   * more on a new connection: HTTP/2 guarantees such a stream was not acted on (RFC 9113,
   * 8.7), so the device gets one push, now rather than at the delivery's next try.
   */
  function send(pushToken: string, resent = false): Promise<{ outcome: PushOutcome; status?: number; reason?: string }> {
    return new Promise((resolve) => {
      let s: ClientHttp2Session;
      let req: ClientHttp2Stream;
      try {
        s = open();
        req = s.request({
          [constants.HTTP2_HEADER_METHOD]: 'POST',
          [constants.HTTP2_HEADER_PATH]: `/3/device/${pushToken}`,
          [constants.HTTP2_HEADER_CONTENT_TYPE]: 'application/json',
          'apns-topic': options.topic,
        });
      } catch (error) {
        resolve({ outcome: 'failed', reason: (error as Error).message });
        return;
      }
      req.setTimeout(timeoutMs, () => req.close(constants.NGHTTP2_CANCEL));
      let status = 0;
      let body = '';
      let failure: string | undefined;
      req.setEncoding('utf8');
      req.on('response', (headers) => void (status = Number(headers[constants.HTTP2_HEADER_STATUS])));
      req.on('data', (chunk: string) => void (body += chunk));
      req.on('error', (error) => void (failure = error.message));
      req.on('close', () => {
        if (!status && req.rstCode === constants.NGHTTP2_REFUSED_STREAM && !resent) {
          retire(s);
          resolve(send(pushToken, true));
          return;
        }
        if (!status && failure) {
          resolve({ outcome: 'failed', reason: failure });
          return;
        }
        let reason: string | undefined;
        try {
          reason = body ? (JSON.parse(body) as { reason?: string }).reason : undefined;
        } catch {
          reason = undefined;
        }
        if (status === 200) resolve({ outcome: 'sent', status });
        else if (status === 410) resolve({ outcome: 'unregistered', status, ...(reason && { reason }) });
        else resolve({ outcome: 'failed', status, reason: reason ?? (status ? `HTTP ${status}` : 'no answer') });
      });
      req.end('{}');
    });
  }
}

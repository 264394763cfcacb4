// Apple Push Notification service, as PassKit uses it: an empty push to a device's push
// token with the pass type id as topic tells the device to ask the web service what changed.
// One interface, one real adapter over node:http2 with TLS client authentication by the pass
// type certificate. (@parse/node-apn was considered: its endpoint is chosen by a production
// flag and its `ca` option replaces the trusted roots instead of adding to them, while the
// push itself is a single empty HTTP/2 POST.) A pass push authenticates with that certificate
// on the TLS connection: there is no provider token to mint, reuse or renew (Apple's token
// auth, with its 20-minute renewal floor, is for app pushes); the connections stay open and
// are reused. Several connections (APNS_CONNECTIONS) each carry as many streams as APNs allows.
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { rootCertificates } from 'node:tls';
import pLimit, { type LimitFunction } from 'p-limit';

export type PushOutcome = 'sent' | 'unregistered' | 'failed';

/**
 * Whose push it is: a guest's or staff's own change ('own', the default), or a park-wide wave
 * ('wave'), which never takes more than WAVE_SHARE of the streams APNs allows, so that an own
 * push finds a stream free while a wave drains.
 */
export type PushLane = 'own' | 'wave';

export interface ApnsClient {
  /** Pushes the empty PassKit notification to one device; 'unregistered' when APNs answers 410. */
  push(pushToken: string, lane?: PushLane): Promise<{ outcome: PushOutcome; status?: number; reason?: string }>;
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
  /** HTTP/2 connections to APNs, each with its own streams (APNS_CONNECTIONS; 1 unless given). */
  connections?: number;
}

/** Push tokens are hex strings; anything else never reaches the request path. */
const PUSH_TOKEN = /^[0-9a-fA-F]{8,200}$/;

/** Streams at once until APNs's SETTINGS say how many it takes (what Node assumes meanwhile). */
const STREAMS_BEFORE_SETTINGS = 100;

/** The share of the streams APNs allows that a wave's pushes may hold at once: the rest stays free for own pushes. */
const WAVE_SHARE = 0.8;

type PushResult = { outcome: PushOutcome; status?: number; reason?: string };

/** One HTTP/2 connection to APNs and the streams it may have open. */
interface Connection {
  session: ClientHttp2Session | undefined;
  streams: LimitFunction;
}

export function createHttp2ApnsClient(options: Http2ApnsOptions): ApnsClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A push waits in its connection's limiter for a stream APNs allows (its SETTINGS: 500 at
  // once, fewer after rejected pushes), not in the HTTP/2 client, which would hold it too but
  // with its timeout already running: a push is timed from when it is sent.
  const connections: Connection[] = Array.from({ length: Math.max(1, options.connections ?? 1) }, () => ({
    session: undefined,
    streams: pLimit(STREAMS_BEFORE_SETTINGS),
  }));
  const allowed = () => connections.reduce((sum, c) => sum + c.streams.concurrency, 0);
  const wave = pLimit(Math.floor(allowed() * WAVE_SHARE));
  /** The connection with the fewest pushes in flight or waiting. */
  const leastBusy = () =>
    connections.reduce((best, c) =>
      c.streams.activeCount + c.streams.pendingCount < best.streams.activeCount + best.streams.pendingCount ? c : best,
    );

  const open = (c: Connection) => {
    if (c.session && !c.session.closed && !c.session.destroyed) return c.session;
    const s = connect(options.url, {
      cert: options.certPem,
      key: options.keyPem,
      ca: options.extraCaPem ? [...rootCertificates, options.extraCaPem] : undefined,
    });
    s.on('remoteSettings', ({ maxConcurrentStreams }) => {
      if (!maxConcurrentStreams) return;
      c.streams.concurrency = maxConcurrentStreams;
      wave.concurrency = Math.max(1, Math.floor(allowed() * WAVE_SHARE));
    });
    s.on('error', () => s.destroy());
    s.on('goaway', () => retire(c, s));
    // An idle connection must not keep the process alive.
    s.unref();
    c.session = s;
    return s;
  };

  return {
    push(pushToken, lane = 'own') {
      if (!PUSH_TOKEN.test(pushToken)) return Promise.resolve({ outcome: 'failed', reason: 'BadDeviceToken' });
      const onStream = () => {
        const c = leastBusy();
        return c.streams(() => send(c, pushToken));
      };
      return lane === 'wave' ? wave(onStream) : onStream();
    },
    async close() {
      await Promise.all(
        connections.map(async (c) => {
          const s = c.session;
          c.session = undefined;
          // A session destroyed by a connection error is not "closed", and close() would never call back.
          if (s && !s.closed && !s.destroyed) await new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };

  /** A session APNs is done with: no push goes on it any more, and it closes once its answers are in. */
  function retire(c: Connection, s: ClientHttp2Session) {
    if (c.session === s) c.session = undefined;
    if (!s.closed && !s.destroyed) s.close();
  }

  /**
   * One push. A stream APNs refused unprocessed (REFUSED_STREAM: it went away, its GOAWAY
   * naming an earlier stream as the last it handles, or it took no more streams) is sent once
   * more on a new connection: HTTP/2 guarantees such a stream was not acted on (RFC 9113,
   * 8.7), so the device gets one push, now rather than at the delivery's next try.
   */
  function send(c: Connection, pushToken: string, resent = false): Promise<PushResult> {
    return new Promise((resolve) => {
      let s: ClientHttp2Session;
      let req: ClientHttp2Stream;
      try {
        s = open(c);
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
          retire(c, s);
          resolve(send(c, pushToken, true));
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

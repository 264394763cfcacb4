// Google Wallet's save and delete callbacks: the message Google posts to a class's callback
// URL when a guest saves an object to a wallet or deletes it, signed with Google's
// ECv2SigningOnly protocol (the Google Pay payment-data protocol without encryption):
//
//   1. one of Google's root keys (GOOGLE_WALLET_ROOT_KEYS, not expired) signed the
//      intermediate signing key: ECDSA P-256 / SHA-256 over the length-prefixed sender id,
//      protocol version and signedKey;
//   2. the intermediate key (signedKey.keyValue) has not expired (signedKey.keyExpiration);
//   3. the intermediate key signed the message: over the length-prefixed sender id,
//      recipient id (the issuer id), protocol version and signedMessage;
//   4. the message (classId, objectId, expTimeMillis, eventType save|del, nonce) has not
//      expired.
//
// Written by hand with node:crypto: Google's documented verifier is Tink's
// PaymentMethodTokenRecipient (Java, C++, Python), which has no maintained JavaScript port,
// and the npm packages for Google Pay tokens decrypt ECv2 payment tokens rather than verify
// ECv2SigningOnly messages. The steps above are Tink's, check for check.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from '../../platform/config.ts';

/** The sender id Google signs Wallet callbacks with. */
export const CALLBACK_SENDER_ID = 'GooglePayPasses';
export const CALLBACK_PROTOCOL = 'ECv2SigningOnly';

export const CALLBACK_EVENTS = ['save', 'del'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

/** A verified callback message. */
export interface CallbackMessage {
  classId: string;
  objectId: string;
  eventType: CallbackEvent;
  nonce: string;
  expiresAt: Date;
}

/** A message that is not a valid callback signed by Google: answered 400, nothing recorded. */
export class CallbackRefused extends Error {
  constructor(
    message: string,
    /** The event of a message whose signatures held but which is refused all the same (expired, another issuer). */
    readonly event: CallbackEvent | null = null,
  ) {
    super(message);
  }
}

/** How long a failed fetch of Google's root keys is remembered before the next try. */
export const ROOT_KEYS_RETRY_MS = 60_000;

/** Google's root keys could not be fetched: answered 503, so Google tries again. */
export class RootKeysUnavailable extends Error {}

/** The body Google posts (a JSON object; the strings are serialized JSON, signed as they are). */
export const callbackEnvelope = z.strictObject({
  protocolVersion: z.string().max(50),
  signature: z.string().max(1000),
  intermediateSigningKey: z.strictObject({
    signedKey: z.string().max(2000),
    signatures: z.array(z.string().max(1000)).min(1).max(10),
  }),
  signedMessage: z.string().max(4000),
});

const millis = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,16}$/)
    .transform(Number),
]);
const signedKeyJson = z.object({ keyValue: z.string().min(1), keyExpiration: millis });
const messageJson = z.object({
  classId: z.string().min(1).max(300),
  objectId: z.string().min(1).max(300),
  expTimeMillis: millis,
  eventType: z.enum(CALLBACK_EVENTS),
  nonce: z.string().min(1).max(300),
});
const rootKeysJson = z.object({
  keys: z.array(z.object({ keyValue: z.string(), protocolVersion: z.string(), keyExpiration: millis.optional() })),
});

interface RootKey {
  key: KeyObject;
  expiresAt: number;
}

/** Where Google's root keys come from: read once (a file), or fetched and kept as long as Google's answer allows (a URL). */
export interface RootKeys {
  current(): Promise<RootKey[]>;
}

/** The 4-byte little-endian length of each UTF-8 chunk before it, as Tink's toLengthValue. */
function lengthValue(...chunks: string[]): Buffer {
  return Buffer.concat(
    chunks.flatMap((chunk) => {
      const bytes = Buffer.from(chunk, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return [length, bytes];
    }),
  );
}

/** An ECDSA P-256 public key from base64 DER SubjectPublicKeyInfo. */
function p256Key(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not an ECDSA P-256 key');
  return key;
}

/** A DER ECDSA signature (base64) over data; false for anything malformed. */
function signedBy(key: KeyObject, data: Buffer, signature: string): boolean {
  try {
    return verify('sha256', data, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

function parseJson<T>(text: string, schema: z.ZodType<T>, what: string, event: CallbackEvent | null = null): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CallbackRefused(`${what} is not JSON`, event);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new CallbackRefused(`${what} lacks ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`, event);
  return parsed.data;
}

/** The ECv2SigningOnly root keys of Google's key document ({"keys":[{keyValue, protocolVersion, keyExpiration}]}). */
export function parseRootKeys(text: string): RootKey[] {
  const document = rootKeysJson.parse(JSON.parse(text));
  // Tink skips an ECv2SigningOnly key without keyExpiration; so does this.
  return document.keys
    .filter((k) => k.protocolVersion === CALLBACK_PROTOCOL && k.keyExpiration !== undefined)
    .map((k) => ({ key: p256Key(k.keyValue), expiresAt: k.keyExpiration! }));
}

/**
 * The root keys of GOOGLE_WALLET_ROOT_KEYS: an http(s) URL, fetched when a callback first
 * needs it and again when Google's Cache-Control max-age (or an hour) has passed; or a
 * file, read and checked at start (a bad one stops the server, naming the setting). A failed
 * fetch is remembered for ROOT_KEYS_RETRY_MS: the callbacks meanwhile are answered 503 at once
 * (Google retries them) instead of each waiting on a Google that does not answer.
 */
export async function loadRootKeys(source: string, fetchTimeoutMs = 5000): Promise<RootKeys> {
  if (!/^https?:\/\//i.test(source)) {
    let keys: RootKey[];
    try {
      keys = parseRootKeys(await readFile(source, 'utf8'));
    } catch (err) {
      throw new ConfigError(`GOOGLE_WALLET_ROOT_KEYS: ${source} is not Google's root key file (${(err as Error).message.split('\n')[0]})`);
    }
    if (keys.length === 0) throw new ConfigError(`GOOGLE_WALLET_ROOT_KEYS: ${source} has no ${CALLBACK_PROTOCOL} key with a keyExpiration`);
    return { current: async () => keys };
  }
  let cached: { keys: RootKey[]; until: number } | null = null;
  let failed: { error: RootKeysUnavailable; until: number } | null = null;
  /** The fetch under way: callbacks arriving meanwhile wait for it rather than fetch again. */
  let fetching: Promise<RootKey[]> | null = null;
  const fetchKeys = async (): Promise<RootKey[]> => {
    try {
      const answer = await fetch(source, { signal: AbortSignal.timeout(fetchTimeoutMs) });
      if (!answer.ok) throw new Error(`answered ${answer.status}`);
      const keys = parseRootKeys(await answer.text());
      const maxAge = /max-age=(\d+)/.exec(answer.headers.get('cache-control') ?? '')?.[1];
      cached = { keys, until: Date.now() + (maxAge ? Number(maxAge) : 3600) * 1000 };
      return keys;
    } catch (err) {
      const error = new RootKeysUnavailable(`Google's root keys could not be fetched from ${source}: ${(err as Error).message}`);
      failed = { error, until: Date.now() + ROOT_KEYS_RETRY_MS };
      throw error;
    }
  };
  return {
    async current() {
      if (cached && cached.until > Date.now()) return cached.keys;
      if (failed && failed.until > Date.now()) throw failed.error;
      fetching ??= fetchKeys().finally(() => {
        fetching = null;
      });
      return fetching;
    },
  };
}

/**
 * The callback's message, once every signature and expiry holds (CallbackRefused otherwise).
 * recipientId is the issuer id; the message must name this issuer's class and object.
 */
export async function verifyCallback(
  body: unknown,
  options: { rootKeys: RootKeys; recipientId: string; now?: number },
): Promise<CallbackMessage> {
  const now = options.now ?? Date.now();
  const envelope = callbackEnvelope.safeParse(body);
  if (!envelope.success)
    throw new CallbackRefused(
      'Not a Google Wallet callback: protocolVersion, signature, intermediateSigningKey and signedMessage are expected',
    );
  const { protocolVersion, signature, intermediateSigningKey, signedMessage } = envelope.data;
  if (protocolVersion !== CALLBACK_PROTOCOL) throw new CallbackRefused(`Unsupported protocolVersion (${CALLBACK_PROTOCOL} is expected)`);

  const roots = (await options.rootKeys.current()).filter((root) => root.expiresAt > now);
  const signedKeyBytes = lengthValue(CALLBACK_SENDER_ID, CALLBACK_PROTOCOL, intermediateSigningKey.signedKey);
  const rootSigned = roots.some((root) => intermediateSigningKey.signatures.some((s) => signedBy(root.key, signedKeyBytes, s)));
  if (!rootSigned) throw new CallbackRefused("The intermediate signing key is not signed by any of Google's root keys");

  const signedKey = parseJson(intermediateSigningKey.signedKey, signedKeyJson, 'The signed key');
  if (signedKey.keyExpiration <= now) throw new CallbackRefused('The intermediate signing key has expired');
  let intermediate: KeyObject;
  try {
    intermediate = p256Key(signedKey.keyValue);
  } catch {
    throw new CallbackRefused('The intermediate signing key is not an ECDSA P-256 key');
  }
  const messageBytes = lengthValue(CALLBACK_SENDER_ID, options.recipientId, CALLBACK_PROTOCOL, signedMessage);
  if (!signedBy(intermediate, messageBytes, signature))
    throw new CallbackRefused('The message is not signed by the intermediate signing key');

  const message = parseJson(signedMessage, messageJson, 'The signed message');
  if (message.expTimeMillis <= now) throw new CallbackRefused('The message has expired', message.eventType);
  const prefix = `${options.recipientId}.`;
  if (!message.objectId.startsWith(prefix) || !message.classId.startsWith(prefix))
    throw new CallbackRefused("The message names another issuer's class or object", message.eventType);
  return {
    classId: message.classId,
    objectId: message.objectId,
    eventType: message.eventType,
    nonce: message.nonce,
    expiresAt: new Date(message.expTimeMillis),
  };
}

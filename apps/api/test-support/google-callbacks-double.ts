// Test support: Google's side of Wallet callbacks. A root key pair of the tests' own (its
// public key written in Google's key document format, for GOOGLE_WALLET_ROOT_KEYS) signs an
// intermediate key, which signs each message, as Google's ECv2SigningOnly protocol does:
// ECDSA P-256 with SHA-256 over 4-byte little-endian length-prefixed UTF-8 chunks.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';

const SENDER_ID = 'GooglePayPasses';
const PROTOCOL = 'ECv2SigningOnly';
const HOUR = 60 * 60 * 1000;

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const spkiBase64 = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).toString('base64');

function lengthPrefixed(...chunks: string[]): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length, 0);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

/** Google's root key document (GOOGLE_WALLET_ROOT_KEYS) holding this public key. */
export const rootKeysDocument = (publicKey: KeyObject, keyExpiration = Date.now() + 24 * HOUR) =>
  JSON.stringify({ keys: [{ keyValue: spkiBase64(publicKey), protocolVersion: PROTOCOL, keyExpiration: String(keyExpiration) }] });

export interface CallbackOptions {
  /** When the intermediate key expires (default: in an hour). */
  keyExpiration?: number;
  /** The root key that signs the intermediate key (default: the one in the key document). */
  rootKey?: KeyObject;
  /** The recipient id signed (default: the issuer id). */
  recipientId?: string;
  /** Changes the signed message after signing (a forged or damaged message). */
  tamper?: (signedMessage: string) => string;
}

export class GoogleCallbackSigner {
  readonly intermediate = p256();

  constructor(
    readonly issuerId: string,
    /** The root key pair (default: a new one); the browser tests share theirs with the server they start. */
    readonly root: { privateKey: KeyObject; publicKey: KeyObject } = p256(),
  ) {}

  /** Google's root key document with the tests' root key. */
  keysDocument(): string {
    return rootKeysDocument(this.root.publicKey);
  }

  async writeKeysFile(path: string): Promise<string> {
    await writeFile(path, this.keysDocument());
    return path;
  }

  /** A message as Google would post it for this object. */
  message(objectId: string, eventType: 'save' | 'del', fields: { nonce?: string; expTimeMillis?: number } = {}) {
    const classId = `${this.issuerId}.park-ticket`;
    return { classId, objectId, expTimeMillis: fields.expTimeMillis ?? Date.now() + HOUR, eventType, nonce: fields.nonce ?? randomUUID() };
  }

  /** The body Google posts: the message signed by the intermediate key, signed by the root key. */
  sign(message: object, options: CallbackOptions = {}) {
    const signedKey = JSON.stringify({
      keyValue: spkiBase64(this.intermediate.publicKey),
      keyExpiration: String(options.keyExpiration ?? Date.now() + HOUR),
    });
    const keySignature = sign('sha256', lengthPrefixed(SENDER_ID, PROTOCOL, signedKey), options.rootKey ?? this.root.privateKey);
    const signedMessage = JSON.stringify(message);
    const signature = sign(
      'sha256',
      lengthPrefixed(SENDER_ID, options.recipientId ?? this.issuerId, PROTOCOL, signedMessage),
      this.intermediate.privateKey,
    );
    return {
      signature: signature.toString('base64'),
      intermediateSigningKey: { signedKey, signatures: [keySignature.toString('base64')] },
      protocolVersion: PROTOCOL,
      signedMessage: options.tamper ? options.tamper(signedMessage) : signedMessage,
    };
  }
}

/** Another root key: one Google's key document does not hold. */
export const unknownRootKey = () => p256().privateKey;

/** A root key pair from its private key (PKCS #8 PEM). */
export function rootKeyPair(privateKeyPem: string) {
  const privateKey = createPrivateKey(privateKeyPem);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** A new root key pair's private key as PKCS #8 PEM (to hand from one process to another). */
export const newRootKeyPem = () => p256().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

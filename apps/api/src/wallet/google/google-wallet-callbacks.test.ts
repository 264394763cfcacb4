// The ECv2SigningOnly checks on their own, with the tests' keys: a root key counts only until
// its keyExpiration, and only ECv2SigningOnly keys with an expiration are read from Google's
// key document.
import { describe, expect, it } from 'vitest';
import { GoogleCallbackSigner, rootKeysDocument } from '../../../test-support/google-callbacks-double.ts';
import { CallbackRefused, parseRootKeys, verifyCallback } from './google-wallet-callbacks.ts';

const ISSUER_ID = '3388000000022000001';
const signer = new GoogleCallbackSigner(ISSUER_ID);
const body = signer.sign(signer.message(`${ISSUER_ID}.object`, 'save'));
const keysOf = (document: string) => ({ current: async () => parseRootKeys(document) });

describe('verifyCallback', () => {
  it('accepts a message whose intermediate key an unexpired root key signed', async () => {
    const message = await verifyCallback(body, { rootKeys: keysOf(signer.keysDocument()), recipientId: ISSUER_ID });
    expect(message).toMatchObject({ objectId: `${ISSUER_ID}.object`, eventType: 'save', classId: `${ISSUER_ID}.park-ticket` });
  });

  it('refuses one whose only root key has expired', async () => {
    const expired = rootKeysDocument(signer.root.publicKey, Date.now() - 1000);
    await expect(verifyCallback(body, { rootKeys: keysOf(expired), recipientId: ISSUER_ID })).rejects.toThrow(CallbackRefused);
  });

  it("reads only the ECv2SigningOnly keys with a keyExpiration from Google's document", () => {
    const document = JSON.parse(signer.keysDocument()) as { keys: Record<string, string>[] };
    const key = document.keys[0]!;
    const mixed = JSON.stringify({
      keys: [key, { ...key, protocolVersion: 'ECv2' }, { keyValue: key.keyValue!, protocolVersion: 'ECv2SigningOnly' }],
    });
    expect(parseRootKeys(mixed)).toHaveLength(1);
  });
});

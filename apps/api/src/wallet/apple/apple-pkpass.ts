// Builds a signed .pkpass: pass.json and the pass's images, manifest.json with the SHA-1 of
// every file, the detached signature of the manifest, zipped. Everything that does not
// change between passes (the images, their hashes, the certificate part of the signature)
// is prepared once when the builder is made, so a pass costs one JSON encoding, a few
// hashes, one RSA signature and a zip.
import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import type { ManifestSigner } from './apple-signature.ts';

export const PKPASS_CONTENT_TYPE = 'application/vnd.apple.pkpass';

export interface PkpassBuilder {
  /** The .pkpass file for this pass.json, with extra images (thumbnail.png...) for this pass only. */
  build(passJson: object, files?: Record<string, Uint8Array>): Buffer;
}

const sha1 = (data: Uint8Array) => createHash('sha1').update(data).digest('hex');
/** PNGs are already compressed: stored as they are. */
const stored = { level: 0 } as const;

export function createPkpassBuilder(options: { signer: ManifestSigner; staticFiles: Record<string, Uint8Array> }): PkpassBuilder {
  const { signer } = options;
  const staticFiles = Object.entries(options.staticFiles).map(([name, data]) => ({ name, data, hash: sha1(data) }));
  const staticManifest = Object.fromEntries(staticFiles.map((f) => [f.name, f.hash]));
  const staticZip: Zippable = Object.fromEntries(staticFiles.map((f) => [f.name, [f.data, stored]]));

  return {
    build(passJson, files = {}) {
      const pass = Buffer.from(JSON.stringify(passJson));
      const manifest: Record<string, string> = { 'pass.json': sha1(pass), ...staticManifest };
      const zip: Zippable = { 'pass.json': pass, ...staticZip };
      for (const [name, data] of Object.entries(files)) {
        manifest[name] = sha1(data);
        zip[name] = [data, stored];
      }
      const manifestJson = Buffer.from(JSON.stringify(manifest));
      zip['manifest.json'] = manifestJson;
      zip.signature = [signer.sign(manifestJson), stored];
      return Buffer.from(zipSync(zip));
    },
  };
}

// app.appleWallet: what every Apple pass needs besides the ticket, made once at start:
// certificates (or the development chain, made on the first start), the brand images, the
// signer, and the APNs client when pushes are configured.
import { readFile } from 'node:fs/promises';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { createHttp2ApnsClient, type ApnsClient } from './apns.ts';
import { loadAppleCredentials } from './apple-certificates.ts';
import { watchCertificateExpiry } from './apple-certificate-expiry.ts';
import { renderPassImages } from './apple-pass-images.ts';
import { createPkpassBuilder, type PkpassBuilder } from './apple-pkpass.ts';
import { createManifestSigner } from './apple-signature.ts';

export interface AppleWallet {
  builder: PkpassBuilder;
  /** Base64 DER of the NFC key's public half. */
  nfcPublicKey: string;
  /** Set when APNs is configured (config.apple.apnsUrl). */
  apns: ApnsClient | undefined;
  /** The signer certificate: when it expires, and whether it is the development chain's. */
  certificate: { notAfter: Date; development: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    appleWallet: AppleWallet;
  }
}

export const appleWalletPlugin = fp(
  async (app) => {
    const { apple } = app.config;
    const credentials = await loadAppleCredentials(app.config, app.log);
    const apns = apple.apnsUrl
      ? createHttp2ApnsClient({
          url: apple.apnsUrl,
          topic: apple.passTypeId,
          certPem: credentials.signerCertPem,
          keyPem: credentials.signerKeyPem,
          extraCaPem: apple.apnsCaFile ? await readFile(apple.apnsCaFile, 'utf8') : undefined,
          connections: apple.apnsConnections,
        })
      : undefined;
    if (apns) app.addHook('onClose', () => apns.close());
    const certificate = { notAfter: credentials.signerNotAfter, development: credentials.development };
    new Gauge({
      name: 'boardwalk_apple_signer_certificate_expiry_timestamp_seconds',
      help: 'When the Apple Wallet signer certificate expires (Unix time)',
      registers: [app.metrics.registry],
    }).set(Math.floor(certificate.notAfter.getTime() / 1000));
    const stopWatching = watchCertificateExpiry(certificate, apple.certWarningDays, app.log);
    app.addHook('onClose', async () => stopWatching());
    app.decorate('appleWallet', {
      builder: createPkpassBuilder({ signer: createManifestSigner(credentials), staticFiles: await renderPassImages() }),
      nfcPublicKey: credentials.nfcPublicKey,
      apns,
      certificate,
    } satisfies AppleWallet);
  },
  { name: 'apple-wallet', dependencies: ['data', 'metrics'] },
);

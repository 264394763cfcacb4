// app.googleWallet: the Google Wallet adapter, made once at start. A bad key file stops the
// server here, naming GOOGLE_WALLET_KEY_FILE, as does a bad root key file (GOOGLE_WALLET_ROOT_KEYS).
import fp from 'fastify-plugin';
import { createGoogleWallet, type GoogleWallet } from './google-wallet.ts';
import { loadGoogleWalletCredentials } from './google-wallet-credentials.ts';
import { loadRootKeys } from './google-wallet-callbacks.ts';
import { createRequestRate } from './google-rate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    googleWallet: GoogleWallet;
  }
}

export const googleWalletPlugin = fp(
  async (app) => {
    const credentials = await loadGoogleWalletCredentials(app.config, (message) => app.log.warn(message));
    app.decorate(
      'googleWallet',
      await createGoogleWallet({
        credentials,
        publicUrl: app.config.publicUrl,
        apiUrl: app.config.google.apiUrl,
        rootKeys: app.config.google.rootKeys ? await loadRootKeys(app.config.google.rootKeys) : undefined,
        rate: createRequestRate(app.database.db, 'google-wallet', app.config.google.requestsPerSecond),
      }),
    );
  },
  { name: 'google-wallet', dependencies: ['data'] },
);

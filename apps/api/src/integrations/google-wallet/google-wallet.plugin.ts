// app.googleWallet: the Google Wallet adapter, made once at start. A bad key file stops the
// server here, naming GOOGLE_WALLET_KEY_FILE.
import fp from 'fastify-plugin';
import { createGoogleWallet, type GoogleWallet } from './google-wallet.ts';
import { loadGoogleWalletCredentials } from './google-wallet-credentials.ts';

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
      await createGoogleWallet({ credentials, publicUrl: app.config.publicUrl, apiUrl: app.config.google.apiUrl }),
    );
  },
  { name: 'google-wallet', dependencies: ['data'] },
);

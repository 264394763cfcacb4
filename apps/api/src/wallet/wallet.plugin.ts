// app.wallet: the wallet module's services, built once when the app starts from what the
// platform and the wallet adapters offer (the database, the keys, the job queue and change
// bus, the ticket core, Apple's and Google's adapters). Routes and jobs call them
// with the per-request facts only (the request, the client's address, a job's transaction).
import fp from 'fastify-plugin';
import { createAppleDeliveries, type AppleDeliveries } from './deliveries/apple-deliveries.service.ts';
import { createAppleWalletService, type AppleWalletService } from './apple/apple-wallet.service.ts';
import { createGoogleCallbacks, type GoogleCallbacks } from './google/google-callbacks.service.ts';
import { createGoogleDeliveries, type GoogleDeliveries } from './deliveries/google-deliveries.service.ts';
import { createGoogleWalletService, type GoogleWalletService } from './google/google-wallet.service.ts';
import { createParkWaves, type ParkWaves } from './deliveries/park-waves.service.ts';
import { createPassKitService, type PassKitService } from './apple/passkit.service.ts';

export interface Wallet {
  /** Add to Apple Wallet. */
  apple: AppleWalletService;
  /** Apple's PassKit web service. */
  passkit: PassKitService;
  /** Save to Google Wallet. */
  google: GoogleWalletService;
  appleDeliveries: AppleDeliveries;
  googleDeliveries: GoogleDeliveries;
  /** Park-wide changes pushed to every wallet. */
  parkWaves: ParkWaves;
  /** Google's save and delete callbacks. */
  googleCallbacks: GoogleCallbacks;
}

declare module 'fastify' {
  interface FastifyInstance {
    wallet: Wallet;
  }
}

export const walletPlugin = fp(
  async (app) => {
    const deps = {
      db: app.database.db,
      keys: app.keys,
      config: app.config,
      jobs: app.jobs,
      changes: app.jobs,
      tickets: app.tickets,
      appleWallet: app.appleWallet,
      googleWallet: app.googleWallet,
      log: app.log,
    };
    const deliveries = { ...deps, log: app.log.child({ module: 'wallet-deliveries' }) };
    app.decorate('wallet', {
      apple: createAppleWalletService(deps),
      passkit: createPassKitService(deps),
      google: createGoogleWalletService(deps),
      appleDeliveries: createAppleDeliveries(deliveries),
      googleDeliveries: createGoogleDeliveries(deliveries),
      parkWaves: createParkWaves(deliveries),
      googleCallbacks: createGoogleCallbacks({ ...deps, registry: app.metrics.registry }),
    } satisfies Wallet);
  },
  { name: 'wallet', dependencies: ['data', 'metrics', 'keys', 'jobs', 'tickets', 'apple-wallet', 'google-wallet'] },
);

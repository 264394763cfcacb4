// Builds the Fastify app. The register() lists below are the table of contents: the core every
// process needs, the features' jobs, and the HTTP routes. The server (server.ts) builds all
// three; the worker (worker.ts) and the import (import.ts) the core and the jobs.
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '@boardwalk/db/client';
import type { Redis } from 'ioredis';
import type { Clock } from 'pg-boss';
import type { Config } from './platform/config.ts';
import { dataPlugin } from './platform/database.plugin.ts';
import { docsPlugin } from './platform/docs.plugin.ts';
import { activityCountsPlugin } from './platform/activity-counts.ts';
import { registerErrorHandler } from './platform/error-handler.ts';
import { httpPlugin } from './platform/http.plugin.ts';
import { compressionPlugin } from './platform/compression.plugin.ts';
import { loggerOptions } from './platform/logging.ts';
import { keysPlugin } from './platform/keys.plugin.ts';
import { metricsPlugin } from './platform/metrics.plugin.ts';
import { throttlePlugin } from './platform/throttle.plugin.ts';
import { jobsPlugin } from './platform/jobs/jobs.plugin.ts';
import { webPlugin } from './platform/web.plugin.ts';
import { opsRoutes } from './ops/ops.routes.ts';
import { metricsRoutes } from './ops/metrics.routes.ts';
import { passRoutes } from './guest/pass/pass.routes.ts';
import { faceModelsRoutes } from './guest/photo/face-models.routes.ts';
import { photoRoutes } from './guest/photo/photo.routes.ts';
import { voucherRoutes } from './guest/voucher/voucher.routes.ts';
import { shareRoutes } from './guest/share/share.routes.ts';
import { setShareLanguage } from './guest/share/share.repo.ts';
import { storedValueRoutes } from './guest/stored-value/stored-value.routes.ts';
import { appleWalletRoutes } from './wallet/apple/apple-wallet.routes.ts';
import { googleWalletRoutes } from './wallet/google/google-wallet.routes.ts';
import { walletDeliveriesJobs } from './wallet/deliveries/wallet-deliveries.jobs.ts';
import { walletPlugin } from './wallet/wallet.plugin.ts';
import { loyaltyRoutes } from './guest/loyalty/loyalty.routes.ts';
import { loyaltyBirthdayJobs } from './loyalty/loyalty-birthdays.jobs.ts';
import { loyaltyChallengeJobs } from './loyalty/loyalty-challenges.jobs.ts';
import { loyaltyExpiryJobs } from './loyalty/loyalty-expiry.jobs.ts';
import { loyaltyStatementJobs } from './guest/loyalty/loyalty-statement.jobs.ts';
import { privacyRequestJobs } from './guest/privacy/privacy-request.jobs.ts';
import { emailCodeRetention } from './guest/loyalty/loyalty-email-codes.repo.ts';
import { loyaltyReversalsJobs } from './loyalty/loyalty-reversals.jobs.ts';
import { loyaltyIntegrationRoutes } from './loyalty/loyalty-integration.routes.ts';
import { wristbandRoutes } from './guest/wristband/wristband.routes.ts';
import { visitsRoutes } from './guest/visits/visits.routes.ts';
import { visitGateRoutes } from './guest/visits/visit-gate.routes.ts';
import { visitsJobs } from './guest/visits/visits.jobs.ts';
import { ticketPlugin } from './guest/ticket/ticket.plugin.ts';
import { appleWalletPlugin } from './wallet/apple/apple-wallet.plugin.ts';
import { googleWalletPlugin } from './wallet/google/google-wallet.plugin.ts';
import { mailerPlugin } from './integrations/email/mailer.plugin.ts';
import { mailJobs } from './integrations/email/mail.jobs.ts';
import { demoPlugin } from './demo/demo.plugin.ts';
import { integrationAuthPlugin } from './integrations/integration-auth.plugin.ts';
import { eventErasure, eventRetention } from './integrations/events/events.repo.ts';
import { webhooksJobs } from './integrations/events/webhooks/webhooks.jobs.ts';
import { webhookMessageRetention } from './integrations/events/webhooks/webhooks.repo.ts';
import { integrationsRoutes } from './integrations/integrations.routes.ts';
import { staffAuthPlugin } from './staff/auth/staff-auth.plugin.ts';
import { staffAuthRoutes } from './staff/auth/auth.routes.ts';
import { resourcesRoutes } from './staff/resources/resources.routes.ts';
import { deliveriesRoutes } from './staff/deliveries/deliveries.routes.ts';
import { staffWristbandsRoutes } from './staff/wristbands/wristbands.routes.ts';
import { staffLoyaltyRoutes } from './staff/loyalty/staff-loyalty.routes.ts';
import { retentionJobs } from './platform/retention.ts';
import { databaseUpkeepJobs } from './platform/database-upkeep.ts';
import { photoRetention } from './guest/ticket/holder-photo.repo.ts';
import { registrationRetention } from './guest/pass/pass.repo.ts';
import { mailRetention } from './integrations/email/outbox.repo.ts';
import { staffSessionRetention } from './staff/auth/auth.repo.ts';
import { attractionUsageRetention } from './integrations/gate/usage.repo.ts';
import { deviceRetention } from './wallet/apple/passkit.repo.ts';
import { loyaltyAuditRetention } from './staff/loyalty/staff-loyalty.service.ts';
import { privacyPlugin } from './platform/privacy.ts';
import { findTicketsOfPerson, identifyPerson } from './guest/ticket/ticket-privacy.repo.ts';
import { ticketContactsErasure } from './integrations/ticketing/ticket-erasure.repo.ts';
import { findPassLocksOfPerson } from './guest/ticket/pass-lock.repo.ts';
import { findConsentsOfPerson, registrationErasure } from './guest/pass/pass.repo.ts';
import { findSharesMadeBy, findSharesMadeTo, shareErasure } from './guest/share/share.repo.ts';
import { findPhotosOfPerson, photoErasure } from './guest/ticket/holder-photo.repo.ts';
import { findWristbandsOfPerson } from './guest/wristband/wristband.repo.ts';
import { findVisitsOfPerson } from './guest/visits/visits-privacy.repo.ts';
import { findLoyaltyOfPerson, loyaltyAccountErasure } from './loyalty/loyalty-privacy.repo.ts';
import { findReservationsOfPerson, reservationErasure } from './integrations/hotel/reservations.repo.ts';
import { findMailsToPerson, mailErasure } from './integrations/email/outbox.repo.ts';
import { findWalletOfPerson } from './wallet/wallet-presence.repo.ts';
import { memberCardErasure } from './wallet/member-cards.service.ts';
import { loyaltyAuditErasure } from './staff/loyalty/staff-loyalty.service.ts';
import { staffPrivacyRoutes } from './staff/privacy/privacy.routes.ts';
import { staffWebhooksRoutes } from './staff/webhooks/webhooks.routes.ts';
import { staffDashboardRoutes } from './staff/dashboard/dashboard.routes.ts';
import { loyaltyExportsRoutes } from './staff/loyalty/loyalty-exports.routes.ts';
import { auditGuestErasure } from './staff/privacy/privacy.service.ts';
import { guestPrivacyRoutes } from './guest/privacy/privacy-request.routes.ts';
import { revokedLinkRetention, spentLinkRetention } from './guest/privacy/privacy-links.repo.ts';

export interface BuildAppOptions {
  config: Config;
  /** Tests hand in their fresh database and Redis client; the server lets the app open them. */
  database?: Database;
  redis?: Redis;
  /** Namespaces the throttle counters (tests use one per run). */
  throttleKeyPrefix?: string;
  logger?: boolean;
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: { write(line: string): void };
  /** The job queue's clock: pg-boss's system clock unless given (tests keep the queue on real time while they move the Date). */
  jobClock?: Clock;
}

function createFastify(options: BuildAppOptions) {
  const { config } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : loggerOptions(config.logLevel, options.logStream ? { stream: options.logStream } : { pretty: process.stdout.isTTY === true }),
    trustProxy: config.trustProxy,
    // The database plugin opens the embedded database and runs the migrations (an index build
    // on a large table, a cold PGlite on a busy machine): more than Fastify's default 10 s.
    pluginTimeout: 60_000,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  return app;
}

type Instance = ReturnType<typeof createFastify>;

/** The core: the platform, the outbound adapters, the ticket core and the wallet's services, built once. */
async function registerCore(app: Instance, options: BuildAppOptions) {
  await app.register(dataPlugin, {
    config: options.config,
    ...(options.database && { database: options.database }),
    ...(options.redis && { redis: options.redis }),
  });
  // First after the data: its request hook must see every route.
  await app.register(metricsPlugin);
  await app.register(keysPlugin);
  await app.register(jobsPlugin, options.jobClock ? { clock: options.jobClock } : {});
  await app.register(mailerPlugin);
  await app.register(appleWalletPlugin);
  await app.register(googleWalletPlugin);
  await app.register(throttlePlugin, options.throttleKeyPrefix ? { keyPrefix: options.throttleKeyPrefix } : {});
  await app.register(activityCountsPlugin);
  await app.register(ticketPlugin);
  await app.register(walletPlugin);
  // A person's data: each section's finder and each eraser sits beside the data it reads.
  await app.register(privacyPlugin, {
    identify: identifyPerson,
    finders: {
      tickets: findTicketsOfPerson,
      consents: findConsentsOfPerson,
      sharesMade: findSharesMadeBy,
      sharesReceived: findSharesMadeTo,
      photos: findPhotosOfPerson,
      passLocks: findPassLocksOfPerson,
      wristbands: findWristbandsOfPerson,
      visitReservations: findVisitsOfPerson,
      loyalty: findLoyaltyOfPerson,
      hotelReservations: findReservationsOfPerson,
      mails: findMailsToPerson,
      wallet: findWalletOfPerson,
    },
    // In this order: the loyalty account's card and audit entries are found by the email its
    // pseudonym then replaces.
    erasers: [
      memberCardErasure,
      loyaltyAuditErasure,
      loyaltyAccountErasure,
      ticketContactsErasure,
      registrationErasure,
      shareErasure,
      photoErasure,
      reservationErasure,
      mailErasure,
      eventErasure,
    ],
  });
}

/** Each feature's queues and the topics they subscribe to; their handlers run where DELIVERY_WORKERS is true. */
async function registerJobs(app: Instance) {
  await app.register(mailJobs);
  await app.register(walletDeliveriesJobs);
  await app.register(loyaltyReversalsJobs);
  await app.register(loyaltyExpiryJobs);
  await app.register(loyaltyBirthdayJobs);
  await app.register(loyaltyChallengeJobs);
  await app.register(visitsJobs);
  await app.register(loyaltyStatementJobs);
  await app.register(privacyRequestJobs);
  await app.register(webhooksJobs);
  // Each rule sits beside the data it removes.
  await app.register(retentionJobs, {
    rules: [
      registrationRetention,
      photoRetention,
      mailRetention,
      staffSessionRetention,
      attractionUsageRetention,
      deviceRetention,
      loyaltyAuditRetention,
      spentLinkRetention,
      emailCodeRetention,
      revokedLinkRetention,
      eventRetention,
      webhookMessageRetention,
    ],
  });
  await app.register(databaseUpkeepJobs);
}

/** What the server answers over HTTP: the ops routes, the guest features, the integration API, the staff features, the web app. */
async function registerRoutes(app: Instance) {
  await app.register(httpPlugin);
  await app.register(compressionPlugin);
  await app.register(docsPlugin);

  await app.register(opsRoutes);
  await app.register(metricsRoutes);
  await app.register(passRoutes, { shareLanguage: setShareLanguage });
  await app.register(faceModelsRoutes);
  await app.register(photoRoutes);
  await app.register(voucherRoutes);
  await app.register(shareRoutes);
  await app.register(storedValueRoutes);
  await app.register(appleWalletRoutes);
  await app.register(googleWalletRoutes);
  await app.register(loyaltyRoutes);
  await app.register(wristbandRoutes);
  await app.register(visitsRoutes);
  await app.register(integrationAuthPlugin);
  // The feeds, and the tills' loyalty calls (declared by the loyalty core) in the same scope.
  await app.register(integrationsRoutes, { inbound: [loyaltyIntegrationRoutes, visitGateRoutes] });
  await app.register(staffAuthPlugin);
  await app.register(staffAuthRoutes);
  await app.register(resourcesRoutes);
  await app.register(deliveriesRoutes);
  await app.register(staffWristbandsRoutes);
  await app.register(staffLoyaltyRoutes);
  await app.register(staffPrivacyRoutes);
  await app.register(staffWebhooksRoutes);
  await app.register(staffDashboardRoutes);
  await app.register(loyaltyExportsRoutes);
  // A guest's erasure of their own data is audited like a staff member's.
  await app.register(guestPrivacyRoutes, { recordErasure: auditGuestErasure(app.keys) });

  await app.register(webPlugin);
}

/** The server: core, jobs and routes. */
export async function buildApp(options: BuildAppOptions) {
  const app = createFastify(options);
  await registerCore(app, options);
  await registerJobs(app);
  // After the jobs: the demo data is published like a feed's, to the queues declared above.
  await app.register(demoPlugin);
  await registerRoutes(app);
  return app;
}

/** A process that runs jobs and serves nothing (the worker, the import): core and jobs. */
export async function buildWorker(options: BuildAppOptions) {
  const app = createFastify(options);
  await registerCore(app, options);
  await registerJobs(app);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

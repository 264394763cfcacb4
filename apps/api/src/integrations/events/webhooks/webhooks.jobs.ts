// The webhooks queue (a job: one attempt at each of its messages; two jobs fetched at once)
// and the dispatcher that makes the messages from the event feed: it runs where
// DELIVERY_WORKERS is true, every DELIVERY_POLL_SECONDS and again at once while it finds a
// full batch. Processes running it
// together take turns (the dispatcher's cursor row is locked, SKIP LOCKED). /metrics counts each
// attempt by endpoint, type and outcome, with its latency.
import fp from 'fastify-plugin';
import { Counter, Histogram } from 'prom-client';
import { isDatabaseUnavailable } from '../../../platform/database-health.ts';
import { createWebhookDelivery, DISPATCH_BATCH, WEBHOOKS_QUEUE, type WebhookJobData } from './webhook-delivery.ts';
import { createWebhookSender } from './webhook-sender.ts';

export const webhooksJobs = fp(
  async (app) => {
    const log = app.log.child({ module: 'webhooks' });
    const attempts = new Counter({
      name: 'boardwalk_webhook_attempts_total',
      help: 'Webhook attempts by endpoint id, event type and outcome (delivered, failed, gone: 410, disabled: not sent)',
      labelNames: ['endpoint', 'type', 'outcome'],
      registers: [app.metrics.registry],
    });
    const latency = new Histogram({
      name: 'boardwalk_webhook_attempt_duration_seconds',
      help: 'Time from sending a webhook to its answer (or to giving up on one), by endpoint id',
      labelNames: ['endpoint'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [app.metrics.registry],
    });
    const { teamEmail } = app.config;
    const delivery = createWebhookDelivery({
      db: app.database.db,
      jobs: app.jobs,
      keys: app.keys,
      sender: createWebhookSender({ allowPrivateNetworks: app.config.webhooks.allowPrivateNetworks }),
      async tellTeam(tx, endpoint) {
        log.warn({ endpoint: endpoint.id }, 'webhook endpoint disabled: every attempt failed for 5 days');
        if (!teamEmail) return;
        await app.mailer.send(tx, {
          to: teamEmail,
          subject: 'A webhook endpoint was disabled',
          text: [
            `Every attempt to deliver events to the webhook endpoint "${endpoint.description || endpoint.id}" has failed for 5 days, so Boardwalk has disabled it.`,
            '',
            'Its messages are kept: once the receiving system is back, enable the endpoint in the back office (Webhooks) and resend the dead messages. Events can also be read from the event feed (GET /api/integrations/events).',
            '',
            app.config.brandName,
          ].join('\n'),
        });
      },
      observe({ endpointId, type, outcome, ms }) {
        attempts.inc({ endpoint: endpointId, type, outcome });
        if (ms !== null) latency.observe({ endpoint: endpointId }, ms / 1000);
      },
    });

    await app.jobs.declare<WebhookJobData>({ name: WEBHOOKS_QUEUE, policy: 'standard', batchSize: 2, batchHandler: delivery.deliver });

    if (!app.config.deliveries.workers) return;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const tick = async () => {
      try {
        while (!stopped && (await delivery.dispatch()) === DISPATCH_BATCH);
      } catch (err) {
        if (isDatabaseUnavailable(err)) app.databaseHealth.lost(err as Error);
        else log.warn({ err: (err as Error).message }, 'webhook dispatch failed; tried again at the next poll');
      }
      if (!stopped) timer = setTimeout(() => (running = tick()), app.config.deliveries.pollSeconds * 1000);
    };
    app.addHook('onReady', () => {
      running = tick();
    });
    app.addHook('preClose', async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    });
  },
  { name: 'webhooks-jobs', dependencies: ['jobs', 'keys', 'mailer', 'metrics'] },
);

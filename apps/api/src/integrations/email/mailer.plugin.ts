// app.mailer: the mailer of mailer.ts for this app's database and configuration (its queue is
// declared in mail.jobs.ts). At start, outbox rows an older version wrote in clear are sealed
// (unsent) or erased (sent).
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from './mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export const mailerPlugin = fp(
  async (app) => {
    const mailer = createMailer({
      db: app.database.db,
      jobs: app.jobs,
      keys: app.keys,
      smtpUrl: app.config.smtpUrl,
      from: { name: app.config.brandName, address: app.config.supportEmail },
      log: app.log.child({ module: 'mailer' }),
    });
    app.decorate('mailer', mailer);
    const { erased, sealed } = await mailer.sealClearBodies();
    if (erased + sealed > 0)
      app.log.info({ erased, sealed }, 'outbox: bodies kept in clear by an older version sealed (unsent) or erased (sent)');
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mailer', dependencies: ['data', 'jobs', 'keys'] },
);

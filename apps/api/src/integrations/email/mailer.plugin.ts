// app.mailer: the mailer of mailer.ts for this app's database and configuration.
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
      smtpUrl: app.config.smtpUrl,
      from: { name: app.config.brandName, address: app.config.supportEmail },
      log: app.log.child({ module: 'mailer' }),
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mailer', dependencies: ['data'] },
);

import fp from 'fastify-plugin';
import { historyDepsOf } from './demo-history.service.ts';
import { loadDemoData } from './demo.service.ts';

/** DEMO_DATA: loads the demo data set into a database without orders, while the app starts. */
export const demoPlugin = fp(
  async (app) => {
    if (!app.config.demoData) return;
    const started = performance.now();
    const loaded = await loadDemoData({
      db: app.database.db,
      changes: app.jobs,
      parkTimezone: app.config.parkTimezone,
      today: app.config.demoToday,
      history: app.config.demoHistory ? historyDepsOf(app) : null,
    });
    if (!loaded) {
      app.log.info('demo data not loaded: the database already holds orders');
      return;
    }
    const { report, configuration, history } = loaded;
    app.log.info(
      {
        orders: report.orders.created,
        checks: report.checks.created,
        reservations: report.reservations.created,
        usageEvents: report.usage.accepted,
        staffConfiguration: configuration,
        history,
        seconds: (performance.now() - started) / 1000,
      },
      `demo data loaded: ${report.orders.created} orders, ${report.checks.created} checks, ${report.reservations.created} reservations, ${report.usage.accepted} usage events today; ${history ? `90 days of loyalty history: ${history.members} members, ${history.claims} claims, ${history.redemptions} redemptions, ${history.wallet.appleCards + history.wallet.googleCards} member cards in wallets, ${Object.values(history.wallet.deliveries).reduce((a, b) => a + b, 0)} deliveries` : 'no loyalty history (DEMO_HISTORY=false)'} (README.md "Demo data")`,
    );
  },
  { name: 'demo', dependencies: ['data', 'jobs', 'tickets', 'apple-wallet', 'google-wallet'] },
);

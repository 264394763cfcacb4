import fp from 'fastify-plugin';
import { loadDemoData } from './demo.service.ts';

/** DEMO_DATA: loads the demo data set into a database without orders, while the app starts. */
export const demoPlugin = fp(
  async (app) => {
    if (!app.config.demoData) return;
    const loaded = await loadDemoData({
      db: app.database.db,
      changes: app.jobs,
      parkTimezone: app.config.parkTimezone,
      today: app.config.demoToday,
    });
    if (!loaded) {
      app.log.info('demo data not loaded: the database already holds orders');
      return;
    }
    const { report, configuration } = loaded;
    app.log.info(
      {
        orders: report.orders.created,
        checks: report.checks.created,
        reservations: report.reservations.created,
        usageEvents: report.usage.accepted,
        staffConfiguration: configuration,
      },
      `demo data loaded: ${report.orders.created} orders, ${report.checks.created} checks, ${report.reservations.created} reservations, ${report.usage.accepted} usage events today (README.md "Demo data")`,
    );
  },
  { name: 'demo', dependencies: ['data', 'jobs'] },
);

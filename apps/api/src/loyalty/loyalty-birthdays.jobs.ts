// The birthday queue: at start and then every 15 minutes, today's birthday gifts
// (loyalty-birthdays.service.ts): a gift comes within minutes of the member's day starting in
// the park, whatever the park's offset from UTC.
import fp from 'fastify-plugin';
import { giveBirthdayGifts } from './loyalty-birthdays.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

export const LOYALTY_BIRTHDAYS_QUEUE = 'loyalty-birthdays';

export const loyaltyBirthdayJobs = fp(
  async (app) => {
    const core = loyaltyCoreOf(app);
    await app.jobs.declare<object>({
      name: LOYALTY_BIRTHDAYS_QUEUE,
      // One run waits at most: runs due while one waits are that one.
      policy: 'stately',
      batchSize: 1,
      cron: '*/15 * * * *',
      atStart: true,
      handler: async () => {
        await giveBirthdayGifts(core, new Date());
      },
    });
  },
  { name: 'loyalty-birthdays', dependencies: ['jobs'] },
);

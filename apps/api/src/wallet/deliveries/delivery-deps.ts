// What the delivery jobs of both wallets need besides their own wallet's adapter and settings.
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { JobSender } from '../../platform/jobs/job-queue.ts';
import type { TicketCore } from '../../guest/ticket/ticket.service.ts';

export interface DeliveryDeps {
  db: Executor;
  tickets: Pick<TicketCore, 'findPass'>;
  jobs: JobSender;
  log: FastifyBaseLogger;
  /** The past time the changes are compared and delivered at (the demo's history, as LedgerChanges.at); unset: now. */
  at?: Date | undefined;
}

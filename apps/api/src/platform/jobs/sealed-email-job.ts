// A job about an email address that a request must not look up itself: the request queues it
// and answers at once, the same for any email and in the same time (what differs, the look-up
// and the mail, runs after the answer). The job table never holds the email in clear: it is
// sealed for its queue (keys.seal), and a job that does not open does nothing.
import type { Keys } from '../keys.plugin.ts';
import type { NewJob } from './job-queue.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@boardwalk/contract/i18n/languages';

export interface SealedEmailJob {
  email: string;
  /** The language of the request's guest page, which the mail is written in (a job queued before it existed: English). */
  language?: Language;
}

const purposeOf = (queue: string) => `${queue}:email`;

/** The job of `queue` about this email, mailed in this language. */
export const sealedEmailJob = (keys: Keys, queue: string, email: string, language: Language): NewJob => ({
  name: queue,
  data: { email: keys.seal(purposeOf(queue), email), language } satisfies SealedEmailJob,
});

/** The language a job's mail is written in. */
export const jobLanguage = (data: SealedEmailJob): Language => (isLanguage(data.language) ? data.language : DEFAULT_LANGUAGE);

/** The email of a job of `queue`, or null when it does not open. */
export const openEmailJob = (keys: Keys, queue: string, data: SealedEmailJob): string | null => keys.unseal(purposeOf(queue), data.email);

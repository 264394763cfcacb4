// A guest's own request for their data. Asking by email answers the same, in the same time,
// whether or not anything is held (what Boardwalk holds is not told to whoever asks): a job
// searches after the answer and mails a link when something is held, valid 24 hours, through the outbox and the mail job. The link's token,
// sent back as a bearer token, shows everything held about that email (the staff export's
// document) and deletes it (the staff erasure), once: the erasure spends the link.
import { randomUUID } from 'node:crypto';
import {
  guestPrivacyMessages as messages,
  holdsAnything,
  PRIVACY_LINK_REFUSALS,
  PRIVACY_LINK_TOKEN,
  type PrivacyLinkRefusal,
  PRIVACY_MANAGE_PATH,
  type PrivacyErasure,
  type PrivacyExport,
  type PrivacyLinkAnswer,
} from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { linkIn, mailTexts } from '../../integrations/email/mail-texts.ts';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { Jobs } from '../../platform/jobs/jobs.plugin.ts';
import { jobLanguage, openEmailJob, sealedEmailJob, type SealedEmailJob } from '../../platform/jobs/sealed-email-job.ts';
import { attempt, type FailureThrottle } from '../../platform/throttle.ts';
import { isLinkSpent, privacyLinksRevokedAt, revokePrivacyLinks, spendLink } from './privacy-links.repo.ts';
import type { Language } from '@boardwalk/contract/i18n/languages';

export interface GuestPrivacy {
  db: Executor;
  keys: Keys;
  mailer: Mailer;
  privacy: FastifyInstance['privacy'];
  config: Pick<Config, 'publicUrl' | 'brandName' | 'supportEmail'>;
  limits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
  jobs: Pick<Jobs, 'send'>;
  /** Records the guest's erasure in the audit log, in its transaction. */
  recordErasure: (tx: Executor, email: string, erased: Record<string, number>) => Promise<void>;
}

/** What the privacy link job needs. */
export type PrivacyLinkMailing = Pick<GuestPrivacy, 'db' | 'keys' | 'mailer' | 'privacy' | 'config'>;

const VALID_HOURS = PRIVACY_LINK_TOKEN.ttlSeconds / 3600;

/** The token's subject: the link's own id (what an erasure spends), the email and when it was issued (what an erasure revokes). */
const subjectOf = (linkId: string, email: string, issuedAt: number) => `${linkId} ${email} ${issuedAt}`;

/** The keyed hash an email's revoked links are kept under. */
const revokedKey = (keys: Keys, email: string) => keys.keyedHash('privacy-links-revoked', email.toLowerCase());

/**
 * In an erasure's transaction: every privacy link issued for the person's email until now is
 * revoked (a guest's own erasure and a staff erasure alike). A person known by a phone or a
 * name only has no privacy links.
 */
export async function revokeLinksOf(tx: Executor, keys: Keys, email: string | null): Promise<void> {
  if (!email) return;
  const now = new Date();
  await revokePrivacyLinks(tx, revokedKey(keys, email), now, new Date(now.getTime() + PRIVACY_LINK_TOKEN.ttlSeconds * 1000));
}

function privacyMail(deps: PrivacyLinkMailing, email: string, language: Language) {
  const brand = deps.config.brandName;
  const token = deps.keys.signToken(PRIVACY_LINK_TOKEN.purpose, subjectOf(randomUUID(), email, Date.now()), PRIVACY_LINK_TOKEN.ttlSeconds);
  const t = mailTexts(language);
  const closing = t('personalLinkClosing', { hours: VALID_HOURS, supportEmail: deps.config.supportEmail, brand });
  return {
    to: email,
    subject: t('privacy.subject', { brand }),
    text: t('privacy.text', { brand, email, link: linkIn(`${deps.config.publicUrl}${PRIVACY_MANAGE_PATH}#${token}`, language), closing }),
  };
}

/** The queue whose jobs look for what is held about an email and mail the link: after the answer. */
export const PRIVACY_LINK_QUEUE = 'privacy-link';

/**
 * POST /api/privacy/request: queues the search of the email (its job) and answers the same for
 * any email, in the same time: whether anything is held is found after the answer
 * (mailPrivacyLink). Each request counts against the client address and against the email
 * (kept as a keyed hash).
 */
export function requestPrivacyLink(
  deps: GuestPrivacy,
  clientAddress: string,
  email: string,
  language: Language,
): Promise<PrivacyLinkAnswer> {
  const address = email.trim().toLowerCase();
  const emailKey = deps.keys.keyedHash('privacy-link-email', address);
  return attempt([deps.limits.perAddress.of(clientAddress), deps.limits.perEmail.of(emailKey)], async () => {
    await deps.jobs.send(deps.db, sealedEmailJob(deps.keys, PRIVACY_LINK_QUEUE, address, language));
    return { email, validHours: VALID_HOURS };
  });
}

/** The privacy link job: mails the link (one message, in the outbox with its mail job) when anything is held about the email. */
export async function mailPrivacyLink(deps: PrivacyLinkMailing, job: SealedEmailJob): Promise<void> {
  const email = openEmailJob(deps.keys, PRIVACY_LINK_QUEUE, job);
  if (!email) return;
  const { sections } = await deps.privacy.find({ email });
  if (holdsAnything(sections)) await deps.mailer.send(deps.db, privacyMail(deps, email, jobLanguage(job)));
}

/** 401: the link is missing, expired, not valid or spent, said in English and as a reason for the page to word. */
const refused = (why: PrivacyLinkRefusal) => new AppError('UNAUTHORIZED', messages[why], { reason: PRIVACY_LINK_REFUSALS[why] });

/** The link a token names (its id and email); 401 with what to do when it is missing, expired, not valid or spent. */
async function linkOf(deps: Pick<GuestPrivacy, 'db' | 'keys'>, token: string | undefined) {
  if (!token) throw refused('tokenRequired');
  const check = deps.keys.verifyToken(PRIVACY_LINK_TOKEN.purpose, token);
  if (!check.ok) throw refused(check.reason === 'expired' ? 'expired' : 'invalid');
  const [linkId = '', email = '', issuedAt = '0'] = check.subject.split(' ');
  const [spent, revokedAt] = await Promise.all([
    isLinkSpent(deps.db, linkId),
    privacyLinksRevokedAt(deps.db, revokedKey(deps.keys, email)),
  ]);
  // Spent by its own erasure, or revoked by an erasure of the email after it was issued.
  if (spent || (revokedAt && Number(issuedAt) < revokedAt.getTime())) throw refused('spent');
  return { linkId, email };
}

/** GET /api/privacy/data: everything held about the link's email, as the staff export shows it. */
export async function readPersonalData(deps: GuestPrivacy, token: string | undefined): Promise<PrivacyExport> {
  const { email } = await linkOf(deps, token);
  const { sections } = await deps.privacy.find({ email });
  return { exportedAt: new Date().toISOString(), query: { email }, ...sections };
}

/** POST /api/privacy/erase: the staff erasure of the link's email, which spends the link. */
export async function eraseOwnData(deps: GuestPrivacy, token: string | undefined, language: Language): Promise<PrivacyErasure> {
  const { linkId, email } = await linkOf(deps, token);
  const { erased, orderIds } = await deps.privacy.erase(
    { email },
    async (tx, result) => {
      // Two erasures with one link at the same moment: the second waits here, then finds it spent.
      if (!(await spendLink(tx, linkId, new Date(Date.now() + PRIVACY_LINK_TOKEN.ttlSeconds * 1000)))) throw refused('spent');
      await revokeLinksOf(tx, deps.keys, result.person.email);
      await deps.recordErasure(tx, email, result.erased);
    },
    language,
  );
  return { held: Object.values(erased).some((n) => n > 0), erased, orderIds };
}

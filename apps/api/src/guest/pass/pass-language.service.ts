// The guest page's language switch (PUT /api/pass/language): the guest reaches their pass the
// way the wallet calls do (order id and barcode, a share id, or a share link, under the lookup
// throttle), and the language is stored with whose pass it is: the registration's for the
// ticket's own guest, the share's for a shared guest. When it changed, the ticket is published,
// so the wallets' deliveries compare the passes again: the Google objects' default texts follow
// it; an Apple pass carries every language already and is pushed only if it shows something else.
import { guestMessages } from '@boardwalk/contract/errors';
import type { PassLanguageAnswer, PassLanguageRequest } from '@boardwalk/contract/pass-language';
import type { Language } from '@boardwalk/contract/i18n/languages';
import type { Executor } from '@boardwalk/db/client';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { AppError } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import type { Caller } from '../ticket/ticket.service.ts';
import type { PassDeps } from './pass.service.ts';
import { setRegistrationLanguage } from './pass.repo.ts';

/** Stores a share's language (the share feature's, handed in by app.ts): changed, already so, or null for no such active share. */
export type ShareLanguageWriter = (
  tx: Executor,
  share: { barcode: string; shareId: string },
  language: Language,
) => Promise<boolean | null>;

export const passLanguageMessages = {
  notRegistered: 'This ticket is not registered yet: its registration will keep the language the page shows.',
} as const;

/** PUT /api/pass/language */
export async function changePassLanguage(
  deps: Pick<PassDeps, 'db' | 'tickets' | 'changes'> & { shareLanguage: ShareLanguageWriter },
  request: Caller & PassLanguageRequest,
): Promise<PassLanguageAnswer> {
  const { clientAddress, language, ...credentials } = request;
  const { row, shareId } = await deps.tickets.findForWallet({ clientAddress, ...credentials });
  const { barcode } = row.ticket;
  return deps.db.transaction(async (tx) => {
    const changed = shareId
      ? await deps.shareLanguage(tx, { barcode, shareId }, language)
      : await setRegistrationLanguage(tx, barcode, language);
    // The share stopped since the lookup: the page's "Pass No Longer Shared" comes with its next call.
    if (changed === null && shareId) throw new AppError('PASS_NO_LONGER_SHARED', guestMessages.passNoLongerShared);
    if (changed === null) throw new AppError('CONFLICT', passLanguageMessages.notRegistered);
    if (changed) {
      await recordEvent(tx, 'guest.language_changed', `ticket:${barcode}`, {
        orderId: row.order.orderId,
        barcode,
        shareId: shareId || null,
        language,
      });
      await deps.changes.publish(tx, TICKET_CHANGED, [barcode]);
    }
    return { language };
  });
}

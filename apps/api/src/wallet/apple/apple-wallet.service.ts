// Add to Apple Wallet (POST /api/apple-wallet/): the signed .pkpass of a ticket, or of a
// loyalty member's card. The pass is recorded (its stable serial number and what it shows)
// and carries the token the PassKit web service later authenticates the device by.
import { guestMessages } from '@boardwalk/contract/errors';
import { WALLET_REFUSALS, type LoyaltyWalletRequest, type TicketWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import type { AppleWallet } from './apple-wallet.plugin.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { LOYALTY_ACCOUNT_CHANGED } from '../../loyalty/loyalty.topics.ts';
import { toPassOrder, type TicketCore } from '../../guest/ticket/ticket.service.ts';
import {
  currentPassContent,
  loyaltyApplePassContent,
  passTokenOf,
  type PassContent,
  type WalletConfig,
} from './apple-pass-content.service.ts';
import { saveApplePass, type PassHolder } from '../wallet-passes.repo.ts';
import { authorizedMember } from '../../loyalty/loyalty-member.service.ts';

export interface AppleWalletDeps {
  db: Executor;
  keys: Keys;
  config: WalletConfig;
  appleWallet: AppleWallet;
  tickets: TicketCore;
  changes: ChangeBus;
  /** The past time a card is added at (the demo's history, as LedgerChanges.at); unset: now. */
  at?: Date | undefined;
}

export type AppleWalletService = ReturnType<typeof createAppleWalletService>;

export function createAppleWalletService(deps: AppleWalletDeps) {
  const { db, keys, config, appleWallet } = deps;

  /** Records the pass and signs it with the pass's own token. */
  async function signedNewPass(holder: PassHolder, draft: PassContent): Promise<Buffer> {
    const serialNumber = await saveApplePass(db, { holder, contentHash: draft.contentHash, at: deps.at });
    return appleWallet.builder.build({ ...draft.pass, serialNumber, authenticationToken: passTokenOf(keys, serialNumber) }, draft.files);
  }

  return {
    /** The signed .pkpass of the ticket; the client's address counts for the lookup throttle. */
    async createTicketPass(request: TicketWalletRequest, clientAddress: string): Promise<Buffer> {
      const { row, shareId } = await deps.tickets.findForWallet({ clientAddress, ...request });
      // One pass for the ticket's own guest and one for each shared guest (voided when sharing
      // stops), each showing the ticket's own holder.
      const order = toPassOrder(row, deps);
      if (order.excluded) throw new AppError('FORBIDDEN', order.excluded);
      if (!shareId && row.iCloudBoundToWallet)
        throw new AppError('CONFLICT', guestMessages.alreadyInWallet(config.supportEmail), {
          reason: WALLET_REFUSALS.alreadyInWallet,
          params: { supportEmail: config.supportEmail },
        });

      // The serial number is the row's own; the content hash does not depend on it.
      const holder = shareId ? { shareId } : { barcode: row.ticket.barcode };
      return signedNewPass(holder, await currentPassContent(deps, row, '', { shareId: shareId || null }));
    },

    /**
     * The member's signed store card. A card can be added again (another device): the stored
     * content stays what the devices that have the card were last told, and the account is
     * published, so that a balance change still waiting in the queue reaches them too.
     */
    async createMemberCard(request: LoyaltyWalletRequest): Promise<Buffer> {
      const member = await authorizedMember(deps, request, deps.at);
      const pkpass = await signedNewPass({ loyaltyAccountId: member.id }, loyaltyApplePassContent(member, config));
      await db.transaction((tx) => deps.changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, [member.id]));
      return pkpass;
    },
  };
}

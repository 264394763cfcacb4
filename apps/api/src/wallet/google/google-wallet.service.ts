// Save to Google Wallet (POST /api/google-wallet/): the signed link that saves the object of
// a ticket, or of a loyalty member's card, in the guest's Google Wallet. Handing out the link
// marks the pass as issued, so that later changes update the saved object.
import type { GoogleTicketWalletRequest, LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import type { GoogleWallet } from './google-wallet.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { holderLanguage, toPassOrder, type TicketCore } from '../../guest/ticket/ticket.service.ts';
import { classOfKind, objectKindOf, saveToWalletPayload, toTicketObject, type GoogleWalletConfig } from './google-pass-content.service.ts';
import { loyaltyClass, toLoyaltyObject } from './google-member-card-content.service.ts';
import { passStyleOf, relevanceOf, voidReasonOf } from '../pass-style.service.ts';
import { markGoogleIssued } from './google-wallet.repo.ts';
import { authorizedMember, findMemberCard } from '../../loyalty/loyalty-member.service.ts';

export interface GoogleWalletDeps {
  db: Executor;
  keys: Keys;
  config: GoogleWalletConfig;
  googleWallet: GoogleWallet;
  tickets: TicketCore;
}

export type GoogleWalletService = ReturnType<typeof createGoogleWalletService>;

export function createGoogleWalletService(deps: GoogleWalletDeps) {
  const { db, config, googleWallet } = deps;
  const { issuerId } = googleWallet;
  return {
    /** The "Save to Google Wallet" link for the ticket; the client's address counts for the lookup throttle. */
    async createTicketLink(request: GoogleTicketWalletRequest, clientAddress: string): Promise<string> {
      const { row, shareId } = await deps.tickets.findForWallet({ clientAddress, ...request });
      // One object for the ticket's own guest and one for each shared guest (inactive when
      // sharing stops), each showing the ticket's own holder.
      const order = toPassOrder(row, deps);
      if (order.excluded) throw new AppError('FORBIDDEN', order.excluded);

      const style = passStyleOf(order);
      const { serialNumber, googleObjectKind } = await markGoogleIssued(
        db,
        shareId ? { shareId } : { barcode: row.ticket.barcode },
        objectKindOf(style),
      );
      const relevance = await relevanceOf(db, order, config.parkTimezone);
      const target = toTicketObject({
        kind: googleObjectKind,
        order,
        customization: row.customization,
        serialNumber,
        issuerId,
        config,
        withPhoto: request.hasPhoto === true,
        contactless: !row.exclusion?.excludeNfc,
        voidReason: voidReasonOf(order, { shareStopped: false, stored: null }),
        relevance,
        language: holderLanguage(row, shareId),
      });
      // The link carries the class too: Google creates it with the first save (and keeps the one it has).
      const walletClass = classOfKind(target.kind, issuerId, config, relevance);
      return googleWallet.saveUrl(saveToWalletPayload(walletClass, target));
    },

    /**
     * The "Save to Google Wallet" link of the member's card. The object it carries is read
     * after the card is recorded: recording a new card waits for a claim in flight (it holds
     * the account's lock), which did not see the card and so published nothing; Google creates
     * the object from the link, so the link must show that claim's points.
     */
    async createMemberCardLink(request: LoyaltyWalletRequest): Promise<string> {
      const authorized = await authorizedMember(deps, request);
      const { serialNumber } = await markGoogleIssued(db, { loyaltyAccountId: authorized.id });
      const member = (await findMemberCard(db, authorized.id, { timeZone: config.parkTimezone })) ?? authorized;
      return googleWallet.saveUrl({
        loyaltyClasses: [loyaltyClass(issuerId, config)],
        loyaltyObjects: [toLoyaltyObject(member, serialNumber, issuerId, config)],
      });
    },
  };
}

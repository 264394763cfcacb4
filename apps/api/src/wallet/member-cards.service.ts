// A removed loyalty member's wallet cards: voided in the removal's transaction, so that no
// card in a wallet keeps the member's name, number and balance or stays valid. The card row
// outlives the account without anything personal; a job then pushes the voided Apple card to
// every registered device and makes the Google object inactive (member-card-voided).
import type { Executor } from '@boardwalk/db/client';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import { findAccountIdsOfPerson } from '../loyalty/loyalty.repo.ts';
import type { Eraser } from '../platform/privacy.ts';
import { voidLoyaltyPass } from './wallet-passes.repo.ts';

/** The wallet's topic: these member cards (serial numbers) were voided. */
export const MEMBER_CARD_VOIDED = 'member-card.voided';

/** What voiding needs from the caller: publishing the voided cards for the wallet jobs. */
export type CardVoiding = ChangeBus;

/**
 * Voids the member's wallet cards, in the transaction that removes the account and before
 * it does (removing an account whose card was not voided fails).
 */
export async function voidMemberCards(tx: Executor, changes: CardVoiding, accountId: string): Promise<boolean> {
  const voided = await voidLoyaltyPass(tx, accountId);
  if (voided) await changes.publish(tx, MEMBER_CARD_VOIDED, [voided.serialNumber]);
  return voided !== null;
}

/**
 * Erasure: the person's member cards are voided (before their account is pseudonymised, which
 * finds the accounts by the email this reads).
 */
export const memberCardErasure: Eraser = {
  category: 'member cards',
  async erase(tx, person, changes) {
    let voided = 0;
    for (const id of await findAccountIdsOfPerson(tx, person)) if (await voidMemberCards(tx, changes, id)) voided++;
    return voided;
  },
};

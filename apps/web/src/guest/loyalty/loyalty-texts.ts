// The loyalty area's texts and how failures read.
import { describeRequestError, failedWith } from '../../lib/api-client.ts';
import type { ClaimKind } from './loyalty-api.ts';

export const loyaltyTexts = {
  submitting: 'Submitting your info...',
  earned: "You've Earned some Brownie Points!",
  createConflict: 'Unable to create your profile, please try again later...',
  codeResent: 'We sent you a new code. Only the newest code works.',
  downloadApp: 'Download our mobile app and finish setting up your account with the same email to see and use your Brownie points.',
  failure: (supportEmail: string) =>
    `Unable to submit, please try again later. If this issue persists, please email us at ${supportEmail} for assistance.`,
  alreadyClaimed: (supportEmail: string) =>
    `You've already added a purchase online. To add more, please email ${supportEmail} with your membership ID and your order, check or reservation number.`,
  passLinkIncomplete: (supportEmail: string) =>
    `This link is not complete. Please open the whole link from our email, or email ${supportEmail} for a new one.`,
  existingAccount: (supportEmail: string) =>
    `You already have a loyalty account. To add a purchase, please email ${supportEmail} with your membership ID and your reservation number, and our team will add it for you.`,
} as const;

/** A claim's failure: the server's reason on 400 (shown in red), else the support text. */
export function claimErrorMessage(error: unknown, supportEmail: string): string {
  if (failedWith(error, 'VALIDATION_FAILED') && error.body?.message) return error.body.message;
  return loyaltyTexts.failure(supportEmail);
}

/** Code and create failures other than the ones the flow handles (a refused code, 409). */
export const memberErrorMessage = (error: unknown, supportEmail: string) =>
  describeRequestError(error, { networkError: loyaltyTexts.failure(supportEmail), failure: loyaltyTexts.failure(supportEmail) });

/**
 * The three claim forms (tickets, food and beverage, hotel): what each asks for. Kept here, not
 * in the claim page, so the loyalty home names them without loading that page's chunk.
 */
export const CLAIMS: Record<
  ClaimKind,
  { title: string; label: string; hint: string; field: 'orderId' | 'checkNumber' | 'reservationNumber'; scan?: string }
> = {
  tickets: {
    title: 'In-Park Ticket Purchase',
    label: 'Order ID or Invoice Number',
    hint: '8 digits, from your confirmation email',
    field: 'orderId',
    scan: 'Scan your ticket barcode',
  },
  purchase: {
    title: 'Food & Beverage Purchase',
    label: 'Check Number',
    hint: 'Printed on your receipt',
    field: 'checkNumber',
    scan: 'Scan your check number',
  },
  hotels: {
    title: 'Hotel Reservation',
    label: 'Reservation Number',
    hint: 'From your reservation confirmation',
    field: 'reservationNumber',
  },
};

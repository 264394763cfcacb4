// The loyalty member on this device (in local storage): the email is remembered under its own
// key (it fills the email field on the next visit); the member (user id, allowedChanges) is
// kept locally until logout, once their email was proven by its code. A member kept before
// emails were proven (no `proven`) is not signed in: they prove their email at their next visit.
import { useCallback, useSyncExternalStore } from 'react';
import { ALLOWED_CHANGES } from '@boardwalk/contract/loyalty';

export const REMEMBERED_EMAIL_KEY = 'boardwalk.loyalty.rememberEmail';
export const MEMBER_KEY = 'boardwalk.loyalty.member';

export interface LoyaltyMember {
  email: string;
  userID: string;
  /** -1 the account existed before (claims go through staff), 1 ready to claim, 0 claimed. */
  allowedChanges: number;
  /** The email was proven by its one-time code on this device. */
  proven: true;
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

function read(): string | null {
  try {
    return localStorage.getItem(MEMBER_KEY);
  } catch {
    return null;
  }
}

function parse(raw: string | null): LoyaltyMember | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<LoyaltyMember>;
    return typeof value.email === 'string' &&
      typeof value.userID === 'string' &&
      typeof value.allowedChanges === 'number' &&
      value.proven === true
      ? (value as LoyaltyMember)
      : null;
  } catch {
    return null;
  }
}

export function rememberedEmail(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_EMAIL_KEY);
  } catch {
    return null;
  }
}

/** The member on this device, and the ways to change it. */
export function useLoyaltyMember() {
  const raw = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => null,
  );
  const save = useCallback((member: LoyaltyMember | null) => {
    try {
      if (member) {
        localStorage.setItem(MEMBER_KEY, JSON.stringify(member));
        localStorage.setItem(REMEMBERED_EMAIL_KEY, member.email);
      } else {
        localStorage.removeItem(MEMBER_KEY);
        localStorage.removeItem(REMEMBERED_EMAIL_KEY);
      }
    } catch {
      // Storage refused (private mode): the member lasts for this page only.
    }
    changed();
  }, []);
  return {
    member: parse(raw),
    /** An existing account whose email the code proved: claims go through staff (allowedChanges -1). */
    verified: (email: string, userID: string) => save({ email, userID, allowedChanges: ALLOWED_CHANGES.existingAccount, proven: true }),
    created: (email: string, userID: string) => save({ email, userID, allowedChanges: ALLOWED_CHANGES.readyToClaim, proven: true }),
    claimed: (member: LoyaltyMember) => save({ ...member, allowedChanges: ALLOWED_CHANGES.claimed }),
    logout: () => save(null),
  };
}

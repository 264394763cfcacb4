// The staff session in browser storage: the login result under `user`, and beside it the token,
// session id, end time, username and permissions; `rememberTeamMemberUsername` outlives a
// logout. A tiny external store so every component sees a login or logout at once
// (useSyncExternalStore).
import { useSyncExternalStore } from 'react';
import { staffLoginResult, type StaffLoginResult } from '@boardwalk/contract/staff-auth';
import { ADMIN_AREA, type PermissionDeclaration } from '@boardwalk/contract/staff-tabs';

/** The login result of POST /app/login/. */
export type StaffUser = StaffLoginResult;

export const STORAGE_KEYS = {
  user: 'user',
  rememberedUsername: 'rememberTeamMemberUsername',
  token: 'token',
  sessionGUID: 'sessionGUID',
  endTime: 'sessionEndTimestamp',
  username: 'teamMemberUsername',
  permissions: 'permissions',
} as const;

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedUser: StaffUser | null = null;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The stored user, or null (also when the stored value is not one). */
export function getStaffUser(): StaffUser | null {
  const raw = read(STORAGE_KEYS.user);
  if (raw === cachedRaw) return cachedUser;
  cachedRaw = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    cachedUser = staffLoginResult.safeParse(parsed).data ?? null;
  } catch {
    cachedUser = null;
  }
  return cachedUser;
}

function notify() {
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab logging in or out changes this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.user) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useStaffUser(): StaffUser | null {
  return useSyncExternalStore(subscribe, getStaffUser, () => null);
}

export function getRememberedUsername(): string | null {
  return read(STORAGE_KEYS.rememberedUsername);
}

/** Saved at login when the box is checked, removed otherwise. */
export function rememberUsername(username: string, remember: boolean) {
  if (remember) localStorage.setItem(STORAGE_KEYS.rememberedUsername, username);
  else localStorage.removeItem(STORAGE_KEYS.rememberedUsername);
}

export function storeStaffUser(user: StaffUser) {
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.token, user.accessToken);
  localStorage.setItem(STORAGE_KEYS.sessionGUID, user.sessionGUID);
  localStorage.setItem(STORAGE_KEYS.endTime, user.sessionEndTimestamp);
  localStorage.setItem(STORAGE_KEYS.username, user.teamMemberUsername);
  localStorage.setItem(STORAGE_KEYS.permissions, JSON.stringify(user.permissions));
  notify();
}

/** Logout clears local storage except the remembered username. */
export function clearStaffStorage() {
  const remembered = getRememberedUsername();
  try {
    localStorage.clear();
    if (remembered !== null) localStorage.setItem(STORAGE_KEYS.rememberedUsername, remembered);
  } catch {
    // storage unavailable: nothing was stored either
  }
  notify();
}

/**
 * Allowed when any held permission's GUID or name matches the requirement; no requirement is
 * always allowed.
 */
export function hasPermission(user: StaffUser | null, permission: PermissionDeclaration | string | null | undefined): boolean {
  const requirement = typeof permission === 'string' ? permission : permission?.name;
  if (!requirement) return true;
  return Boolean(user?.permissions.some((p) => p.permissionName === requirement || p.permissionGUID === requirement));
}

export const isAdmin = (user: StaffUser | null) => hasPermission(user, ADMIN_AREA);

/** Milliseconds until the stored end time (an ISO instant, UTC) passes; <= 0 once it has. */
export function msUntilExpiry(user: StaffUser, now = Date.now()): number {
  // The contract's timestamps end in Z; one without a zone is read as UTC all the same.
  const stamp = user.sessionEndTimestamp;
  const end = Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(stamp) ? stamp : `${stamp}Z`);
  return Number.isNaN(end) ? 0 : end - now;
}

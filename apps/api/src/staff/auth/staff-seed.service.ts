// A fresh install's permissions and first administrator (level 1000, ADMIN_EMAIL).
// Runs at every start: permissions missing by name are added (those present keep what staff
// set), and an administrator is made only while no team member exists. The work is done
// under an advisory lock, so two instances starting on one database seed one at a time.
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { seededPermissions } from '@boardwalk/contract/staff-navigation';
import type { Db } from '@boardwalk/db/client';
import { newSecret } from '../../platform/secrets.ts';
import {
  anyTeamMember,
  fillMissingPermissionApis,
  insertMissingPermissions,
  insertTeamMember,
  withSeedLock,
  type NewPermission,
} from './auth.repo.ts';
import { hashPassword } from './passwords.ts';

/** Any fixed number naming the lock; "BWSEED" in ASCII. */
const SEED_LOCK = 0x425753_454544;
export const DEFAULT_ADMIN_EMAIL = 'admin@boardwalk.local';
export const ADMIN_ACCESS_LEVEL = 1000;

/** The permission rows a fresh install starts with (the contract's catalog). */
export function seedPermissions(): NewPermission[] {
  return seededPermissions();
}

export interface SeedOptions {
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
  /** Where the generated password's banner goes: standard error, never the logger. */
  announce?: (text: string) => void;
}

export interface SeedOutcome {
  permissionsAdded: number;
  /** The administrator made by this start, if any. */
  admin: { guid: string; username: string; generatedPassword: boolean } | null;
}

export async function seedStaff(db: Db, options: SeedOptions): Promise<SeedOutcome> {
  const announce = options.announce ?? ((text: string) => void process.stderr.write(text));
  const generated = options.adminPassword ? null : newSecret(18);
  const password = options.adminPassword ?? generated!;
  const username = options.adminEmail ?? DEFAULT_ADMIN_EMAIL;

  const outcome = await withSeedLock(db, SEED_LOCK, async (tx) => {
    const permissionsAdded = await insertMissingPermissions(tx, seedPermissions());
    // The loyalty permissions were seeded without an API before they had routes: given theirs.
    await fillMissingPermissionApis(tx, Object.values(LOYALTY));
    if (await anyTeamMember(tx)) return { permissionsAdded, admin: null };
    const row = await insertTeamMember(tx, {
      firstName: 'Boardwalk',
      lastName: 'Administrator',
      internalId: 'admin',
      username,
      passwordHash: await hashPassword(password),
      description: 'First administrator, made at first start',
      accessLevel: ADMIN_ACCESS_LEVEL,
      active: true,
    });
    return { permissionsAdded, admin: { guid: row.guid, username, generatedPassword: generated !== null } };
  });

  if (outcome.admin?.generatedPassword) {
    const rule = '='.repeat(72);
    announce(
      `\n${rule}\n  Boardwalk back office: first administrator created\n  Email:    ${username}\n  Password: ${generated}\n` +
        `  Shown this once only. Log in at /login and change it in the Team tab.\n${rule}\n\n`,
    );
  }
  return outcome;
}

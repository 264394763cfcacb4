// A fresh install's permissions and first administrator (decisions.md "Staff permissions").
// Runs at every start: permissions missing by name are added (those present keep what staff
// set), and an administrator is made only while no team member exists. The work is done
// under an advisory lock, so two instances starting on one database seed one at a time.
import {
  ADMIN_PERMISSION,
  auditLog,
  deliveries,
  DELIVERY_RETRY_API,
  DELIVERY_RETRY_PERMISSION,
  LOYALTY_PERMISSIONS,
  permissionName,
  permissions,
  resources,
  sessions,
  teamMembers,
  type Operation,
  type ResourceDeclaration,
} from '@boardwalk/contract/staff-resources';
import type { Db } from '@boardwalk/db/client';
import { newSecret } from '../../platform/secrets.ts';
import { anyTeamMember, insertMissingPermissions, insertTeamMember, withSeedLock, type NewPermission } from './auth.repo.ts';
import { hashPassword } from './passwords.ts';

/** Any fixed number naming the lock; "BWSEED" in ASCII. */
const SEED_LOCK = 0x425753_454544;
export const DEFAULT_ADMIN_EMAIL = 'admin@boardwalk.local';
export const ADMIN_ACCESS_LEVEL = 1000;

/** Tabs only administrators (level 100) manage; the six configuration tabs need 1 to list, 10 to change. */
const ADMINISTRATION_TABS: ResourceDeclaration[] = [teamMembers, permissions, sessions, auditLog, deliveries];

const METHOD: Record<Operation, 'GET' | 'POST' | 'PUT' | 'DELETE'> = { List: 'GET', Create: 'POST', Update: 'PUT', Delete: 'DELETE' };

/** The permission rows a fresh install starts with. */
export function seedPermissions(): NewPermission[] {
  const rows: NewPermission[] = [];
  for (const tab of resources) {
    const admin = ADMINISTRATION_TABS.includes(tab);
    const operations: Operation[] = ['List'];
    if (tab.operations.create) operations.push('Create');
    if (tab.operations.update) operations.push('Update');
    if (tab.operations.delete) operations.push('Delete');
    for (const op of operations) {
      rows.push({ name: permissionName(tab, op), api: tab.api, method: METHOD[op], minimumAccessLevel: admin ? 100 : op === 'List' ? 1 : 10 });
    }
  }
  rows.push(
    { name: ADMIN_PERMISSION, api: '/admin', method: 'GET', minimumAccessLevel: 1 },
    { name: 'Pass Customization Options', api: '/api/admin/pass-customizations/', method: 'GET', minimumAccessLevel: 1 },
    { name: 'Team Member Options', api: '/api/team-member/', method: 'GET', minimumAccessLevel: 1 },
    { name: DELIVERY_RETRY_PERMISSION, api: DELIVERY_RETRY_API, method: 'POST', minimumAccessLevel: 100 },
    // The loyalty tab's routes come with their own issue; until then these guard nothing.
    ...LOYALTY_PERMISSIONS.map((name) => ({ name, api: null, method: null, minimumAccessLevel: 100 })),
  );
  return rows;
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

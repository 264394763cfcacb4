// The server rules of particular tabs, declared per tab (by its key) beside the generic
// service instead of branches on the tab key inside it. A tab without rules has no entry.
import { sessions, teamMembers } from '@boardwalk/contract/staff-resources';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import type { DbRow } from './resources.repo.ts';

/** What a write is about to do: `changes` are the columns an update sets (adjustable). */
export interface TabWrite {
  action: 'create' | 'update' | 'delete';
  id: string | null;
  stored: DbRow | null;
  changes: DbRow;
}

export interface TabHookContext {
  staff: { teamMemberGuid: string };
}

export interface TabHooks {
  /** The row as it will be stored after a create or an update: throw an AppError to refuse. */
  validate?(row: DbRow): void;
  /** Before the write, inside its transaction: refuse (AppError) or adjust `changes`. */
  beforeWrite?(write: TabWrite, ctx: TabHookContext): void;
  /** After the write, in the same transaction (with its audit entry). */
  afterWrite?(tx: Executor, write: TabWrite & { row: DbRow }, ctx: TabHookContext): Promise<void>;
}

/**
 * Editing a session's end time, or clearing sessionActive, ends it at once. The
 * end time becomes no later than now, so ticking Active again never revives a revoked token.
 */
function endSessionAtOnce({ action, stored, changes }: TabWrite) {
  if (action !== 'update' || !stored) return;
  const now = Date.now();
  if (changes.endTimestamp instanceof Date) changes.endTimestamp = new Date(Math.min(changes.endTimestamp.getTime(), now));
  else if (changes.active === false && stored.endTimestamp instanceof Date && stored.endTimestamp.getTime() > now)
    changes.endTimestamp = new Date(now);
}

/**
 * Members cannot lock themselves out: no deleting, deactivating or demoting one's own
 * account (another administrator can).
 */
function keepOwnAccess({ action, id, stored, changes }: TabWrite, ctx: TabHookContext) {
  if (action === 'create' || id !== ctx.staff.teamMemberGuid) return;
  const refuse = (what: string) => new AppError('CONFLICT', `You cannot ${what} your own account; ask another administrator.`);
  if (action === 'delete') throw refuse('delete');
  if (changes.active === false) throw refuse('deactivate');
  if (typeof changes.accessLevel === 'number' && changes.accessLevel < Number(stored?.accessLevel))
    throw refuse('lower the access level of');
}

export const tabHooks: Record<string, TabHooks> = {
  [teamMembers.key]: { beforeWrite: keepOwnAccess },
  [sessions.key]: { beforeWrite: endSessionAtOnce },
};

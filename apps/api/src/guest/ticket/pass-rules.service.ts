// The pass rules staff configure, kept in memory and applied to a ticket: which customization
// styles its pass, whether a wallet exception skips its registration or photo, which item
// exclusion keeps it out of a wallet, whether it is a wristband.
//
// Why in memory: joined into the lookup's one statement, these rules were 90 to 110 µs of the
// 243 to 303 µs PostgreSQL spent on each lookup (a sort and a hash join set up again at every
// call) and 11 of its 41 columns. Why exact: the lookup's row carries the rules version its
// statement saw (pass_rules_version, moved on by a trigger at every write to a rule, migration
// 0026); a copy older than that version is read again, in the caller's transaction, before it
// is used. So a lookup never applies rules older than its own row, in any process, with no
// message between processes. Validity windows are compared with this process's clock at the
// lookup (the statement used the database's, at its transaction's start).
import type { Executor } from '@boardwalk/db/client';
import { readPassRules, type PassRulesRows } from './pass-rules.repo.ts';

/** What a ticket's rules depend on. */
export interface RuledTicket {
  barcode: string;
  orderId: string;
  packId: string | null;
  categoryId: string | null;
  merchItemId: string | null;
}

type Customization = PassRulesRows['customizations'][number]['customization'];

/** The rules that apply to one ticket, as the order object and the wallet passes use them. */
export interface TicketRules {
  customization: Customization | null;
  skipRegistration: boolean;
  skipImage: boolean;
  /** The exclusion that applies: a full one before one that only drops NFC, then the oldest. */
  exclusion: Pick<PassRulesRows['exclusions'][number], 'excludeNfc' | 'customError' | 'customErrorEs'> | null;
  isWristband: boolean;
}

interface Indexed {
  version: number;
  /** The oldest active customization of each barcode, pack id and category id. */
  byBarcode: Map<string, Customization>;
  byPack: Map<string, Customization>;
  byCategory: Map<string, Customization>;
  exceptions: Map<string, { skipRegistration: boolean; skipImage: boolean }>;
  exclusions: PassRulesRows['exclusions'];
  wristbandPacks: Map<string, PassRulesRows['wristbandPacks']>;
}

const activeAt = (at: number, from: Date | null, to: Date | null) =>
  (from === null || from.getTime() <= at) && (to === null || to.getTime() >= at);

function indexRules(rows: PassRulesRows): Indexed {
  const byBarcode = new Map<string, Customization>();
  const byPack = new Map<string, Customization>();
  const byCategory = new Map<string, Customization>();
  // Oldest first: the first of each key wins.
  for (const { barcode, packId, categoryId, customization } of rows.customizations) {
    if (barcode !== null && !byBarcode.has(barcode)) byBarcode.set(barcode, customization);
    if (packId !== null && !byPack.has(packId)) byPack.set(packId, customization);
    if (categoryId !== null && !byCategory.has(categoryId)) byCategory.set(categoryId, customization);
  }
  const wristbandPacks = new Map<string, PassRulesRows['wristbandPacks']>();
  for (const pack of rows.wristbandPacks) {
    const packs = wristbandPacks.get(pack.merchItemId);
    if (packs) packs.push(pack);
    else wristbandPacks.set(pack.merchItemId, [pack]);
  }
  return {
    version: rows.version,
    byBarcode,
    byPack,
    byCategory,
    exceptions: new Map(rows.exceptions.map(({ orderNumber, ...skips }) => [orderNumber, skips])),
    exclusions: rows.exclusions,
    wristbandPacks,
  };
}

function rulesOf(rules: Indexed, t: RuledTicket, at: number): TicketRules {
  // An exact barcode wins over a pack id, which wins over a category id.
  const customization =
    rules.byBarcode.get(t.barcode) ??
    (t.packId === null ? undefined : rules.byPack.get(t.packId)) ??
    (t.categoryId === null ? undefined : rules.byCategory.get(t.categoryId)) ??
    null;
  const exception = rules.exceptions.get(t.orderId);
  // An exclusion matches when each id it names matches the ticket (it names one at least).
  const exclusion = rules.exclusions.find(
    (x) =>
      (x.merchItemId === null || x.merchItemId === t.merchItemId) &&
      (x.merchPackId === null || x.merchPackId === t.packId) &&
      activeAt(at, x.validFrom, x.validTo),
  );
  const packs = t.packId === null ? undefined : rules.wristbandPacks.get(t.packId);
  return {
    customization,
    skipRegistration: exception?.skipRegistration ?? false,
    skipImage: exception?.skipImage ?? false,
    exclusion: exclusion
      ? { excludeNfc: exclusion.excludeNfc, customError: exclusion.customError, customErrorEs: exclusion.customErrorEs }
      : null,
    isWristband: packs?.some((p) => activeAt(at, p.validFrom, p.validTo)) ?? false,
  };
}

export interface PassRules {
  /**
   * The rules of a ticket whose row saw `version` (null: the version row is gone), from the
   * copy kept, read again first on `db` when it is older.
   */
  of(db: Executor, version: number | null, ticket: RuledTicket): Promise<TicketRules>;
}

/** One process's copy of the pass rules (the ticket core holds it, with its database). */
export function createPassRules(database: Executor): PassRules {
  let kept: Indexed | undefined;
  /** A read on the database itself, which the lookups that find the copy old at once share. */
  let shared: Promise<Indexed> | undefined;

  async function read(db: Executor): Promise<Indexed> {
    const rows = await readPassRules(db);
    const rules = indexRules(rows);
    // Rules a transaction wrote itself may never be committed: used, not kept.
    if (!rows.uncommitted && (!kept || kept.version < rules.version)) kept = rules;
    return rules;
  }

  const current = (rules: Indexed | undefined, version: number | null): rules is Indexed =>
    rules !== undefined && version !== null && rules.version >= version;

  return {
    async of(db, version, ticket) {
      let rules = kept;
      if (!current(rules, version) && db === database) {
        shared ??= read(database).finally(() => (shared = undefined));
        rules = await shared;
      }
      // A shared read that began before this lookup's statement may be older than its row.
      // Inside a transaction the read is its own: waiting for one on the database would wait
      // for the connection the transaction holds (PGlite has one).
      if (!current(rules, version)) rules = await read(db);
      return rulesOf(rules, ticket, Date.now());
    },
  };
}

import { readFileSync } from 'node:fs';
import type { Table } from 'drizzle-orm';
import { PgTable, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { DOC_MARKERS, PERSONAL_DATA, personalDataMarkdown, unclassified } from './personal-data.ts';
import * as schema from './schema.ts';

const tables = Object.fromEntries(Object.entries(schema).filter(([, value]) => value instanceof PgTable)) as Record<string, Table>;

describe('the map of personal data', () => {
  it('classifies every column of every table of the schema, and nothing else', () => {
    expect(Object.keys(tables).length).toBeGreaterThan(30);
    expect(unclassified(tables)).toEqual([]);
  });

  it('fails for a table that gains a column, a table left out and a column that is gone', () => {
    const before = pgTable('notes', { id: text().primaryKey(), body: text() });
    const after = pgTable('notes', { id: text().primaryKey(), body: text(), email: text() });
    const map = [{ table: after, owner: 'test', holds: 'a note', columns: { id: { kind: 'none' }, body: { kind: 'none' } } }] as never;
    expect(unclassified({ notes: after }, map)).toEqual(['notes.email: not classified']);
    expect(unclassified({ notes: before }, [])).toEqual(['notes: not in the map']);
    const gone = [
      { table: before, owner: 'test', holds: 'a note', columns: { id: { kind: 'none' }, body: { kind: 'none' }, email: { kind: 'none' } } },
    ] as never;
    expect(unclassified({ notes: before }, gone)).toEqual(['notes.email: no such column']);
  });

  it('names a category and an erasure for every column that holds a guest', () => {
    const guestColumns = PERSONAL_DATA.flatMap((entry) => Object.values(entry.columns)).filter((c) => c.kind === 'guest');
    expect(new Set(guestColumns.map((c) => c.category))).toEqual(
      new Set(['contact', 'photo', 'consent', 'loyalty', 'device', 'mail', 'audit']),
    );
  });

  it('is shown as it is in docs/privacy.md', () => {
    const doc = readFileSync(new URL('../../../docs/privacy.md', import.meta.url), 'utf8');
    const [start, end] = DOC_MARKERS;
    const shown = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end)).trim();
    expect(shown, 'docs/privacy.md is behind the map: run npm run docs:privacy').toBe(personalDataMarkdown());
  });
});

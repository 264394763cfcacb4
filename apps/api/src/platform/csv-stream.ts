// CSV downloads streamed as the database answers: rows are read a page at a time (by key, so
// each page is one short statement and the embedded database's one connection is never held
// for a whole download), quoted by csv-stringify and written as they come, a page read only
// once the client has taken the one before. Memory stays flat however many rows the file has.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { csvCell, type CsvColumn } from '@boardwalk/contract/csv';

/** Rows per page read from the database. */
export const EXPORT_PAGE_SIZE = 1000;

/** One page of rows after the key of the previous page's last row (null: the first page). */
export type PageReader<R, K> = (after: K | null, limit: number) => Promise<R[]>;

/**
 * A CSV file of every row the reader pages through (keyOf gives a row's key for the next
 * page), with a header line, each cell through csvCell (formulas neutralised). The first page
 * is read before the file starts, so a failing query is an error answer; a database error
 * later ends the stream with it (the client sees the download cut, never a file that looks whole).
 */
export async function csvStream<R, K>(columns: CsvColumn<R>[], read: PageReader<R, K>, keyOf: (row: R) => K): Promise<Readable> {
  const first = await read(null, EXPORT_PAGE_SIZE);
  // A page is written as one piece of text: one stream chunk a page, not one a row (a chunk a
  // row made 100,000 members take three times as long).
  const text = (rows: R[]) => stringify(rows.map((row) => columns.map((c) => csvCell(c.value(row)))));
  async function* pages() {
    yield stringify([columns.map((c) => c.header)]);
    let rows = first;
    yield text(rows);
    while (rows.length === EXPORT_PAGE_SIZE) {
      rows = await read(keyOf(rows.at(-1)!), EXPORT_PAGE_SIZE);
      yield text(rows);
    }
  }
  // Readable.from reads the next page only when the client has taken the last one, and ends
  // the stream with a page's error.
  return Readable.from(pages());
}

/** The Content-Disposition of a download named `name` (ASCII letters, digits, dots and dashes only). */
export const attachment = (name: string) => `attachment; filename="${name.replace(/[^\w.-]/g, '-')}"`;

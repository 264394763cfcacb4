// CSV files the back office downloads (dashboard tables, list exports): the columns' headers
// and the formula guard spreadsheets need. Quoting is csv-stringify's, in the server and the app.

/** A cell whose text starts with one of these is read by spreadsheets as a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as written to a CSV file: text that a spreadsheet would run as a formula is prefixed
 * with a single quote (OWASP's advice), so it shows as the text it is; numbers stay numbers (a
 * negative number is not a formula), null and undefined are empty.
 */
export function csvCell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = value instanceof Date ? value.toISOString() : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A CSV column: its header and where a row keeps its value. */
export interface CsvColumn<R> {
  header: string;
  value: (row: R) => unknown;
}

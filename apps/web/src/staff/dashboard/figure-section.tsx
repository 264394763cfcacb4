// One figure of the Dashboard: its heading, its chart (or a line saying the range holds nothing),
// its numbers as a table (for screen readers, and for anyone who prefers them) and a CSV
// download of the same numbers.
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { stringify } from 'csv-stringify/browser/esm/sync';
import { csvCell } from '@boardwalk/contract/csv';
import { saveBlob } from '../../lib/save-json.ts';
import { ScrollRegion } from '../resources/scroll-region.tsx';

export interface FigureColumn<R> {
  key: keyof R & string;
  label: string;
  /** How the table shows the value (default: a number with separators, an empty value as a dash). */
  format?: (value: R[keyof R]) => string;
}

interface Props<R> {
  id: string;
  title: string;
  rows: R[];
  /** The first column names the row (the day, the tier); the others are its figures. */
  columns: FigureColumn<R>[];
  /** The file name of the CSV download, without .csv. */
  file: string;
  /** The chart; not drawn when every figure is zero (or empty). */
  chart: React.ReactNode;
}

const number = new Intl.NumberFormat('en-US');
const show = (value: unknown) =>
  value === null || value === undefined ? '–' : typeof value === 'number' ? number.format(value) : String(value);

function download<R>(rows: R[], columns: FigureColumn<R>[], file: string) {
  const csv = stringify([columns.map((c) => c.label), ...rows.map((row) => columns.map((c) => csvCell(row[c.key])))]);
  saveBlob(new Blob([csv], { type: 'text/csv' }), `${file}.csv`);
}

export function FigureSection<R>({ id, title, rows, columns, file, chart }: Props<R>) {
  const [label, ...figures] = columns;
  const empty = rows.every((row) => figures.every((c) => !row[c.key]));
  return (
    <section aria-labelledby={`${id}-heading`} className="staff-figure">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h3 id={`${id}-heading`} className="h5 mb-0 me-auto">
          {title}
        </h3>
        <Button variant="outline-secondary" size="sm" onClick={() => download(rows, columns, file)}>
          Download CSV<span className="visually-hidden"> of {title}</span>
        </Button>
      </div>
      {empty ? <p className="staff-figure__empty">Nothing in this range.</p> : <div aria-hidden="true">{chart}</div>}
      <details className="staff-figure__numbers">
        <summary>The numbers</summary>
        <ScrollRegion label={`${title}: the numbers`}>
          <Table size="sm" striped className="mb-0">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={c === label ? undefined : 'text-end'}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={String(row[label!.key])}>
                  <th scope="row" className="text-nowrap">
                    {show(row[label!.key])}
                  </th>
                  {figures.map((c) => (
                    <td key={c.key} className="text-end">
                      {c.format ? c.format(row[c.key]) : show(row[c.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollRegion>
      </details>
    </section>
  );
}

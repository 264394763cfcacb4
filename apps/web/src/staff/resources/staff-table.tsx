// The staff pages' small tables: a compact table in a region that scrolls sideways on a phone,
// its column headings, an optional caption for screen readers, and the body rows the page gives.
// A list's three states (loading, nothing to show, the table) are said the same way everywhere.
import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { ScrollRegion } from './scroll-region.tsx';

/** A column heading: its words, and a class when the column is aligned (numbers to the end). */
export type Column = string | { label: string; className?: string };

/** The heading of a column of buttons: named for screen readers, blank on screen. */
export function ActionsHeader({ label = 'Actions' }: { label?: string }) {
  return (
    <th scope="col">
      <span className="visually-hidden">{label}</span>
    </th>
  );
}

export function StaffTable({
  label,
  caption,
  columns,
  actions = false,
  striped = false,
  className = 'align-middle mb-0',
  regionClassName,
  children,
}: {
  /** The scroll region's name. */
  label: string;
  /** A caption read by screen readers only. */
  caption?: string;
  columns: Column[];
  /** A last column of buttons, named Actions. */
  actions?: boolean;
  striped?: boolean;
  className?: string;
  regionClassName?: string;
  /** The body rows. */
  children: ReactNode;
}) {
  return (
    <ScrollRegion label={label} className={regionClassName}>
      <Table size="sm" striped={striped} className={className}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column, i) =>
              typeof column === 'string' ? (
                <th key={i} scope="col">
                  {column}
                </th>
              ) : (
                <th key={i} scope="col" className={column.className}>
                  {column.label}
                </th>
              ),
            )}
            {actions ? <ActionsHeader /> : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </Table>
    </ScrollRegion>
  );
}

/** A list's states: a status line while it loads, a line when it is empty, else the list itself. */
export function ListStates({
  pending,
  empty,
  loading,
  none,
  noneClassName,
  children,
}: {
  pending: boolean;
  empty: boolean;
  /** The words while it loads (a status). */
  loading: string;
  /** The words when there is nothing to show. */
  none: string;
  noneClassName?: string;
  children: ReactNode;
}) {
  if (pending) return <p role="status">{loading}</p>;
  if (empty) return <p className={noneClassName}>{none}</p>;
  return <>{children}</>;
}

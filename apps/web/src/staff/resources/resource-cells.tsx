// Table cells per type: how a list shows a boolean, colour, amount, date, option or text.
import { useQuery } from '@tanstack/react-query';
import type { CellType, FieldDeclaration } from '@boardwalk/contract/staff-tabs';
import { optionsQueryOptions, type Row } from './resource-api.ts';

export function cellType(field: FieldDeclaration): CellType {
  if (field.cell) return field.cell;
  switch (field.type) {
    case 'checkbox':
      return 'boolean';
    case 'color':
      return 'color';
    case 'datetime':
      return 'datetime';
    case 'select':
      return 'select';
    default:
      return 'text';
  }
}

const asText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Long text cut at maxLength characters with an ellipsis. */
export function truncate(text: string, maxLength: number | undefined): string {
  if (!maxLength || text.length <= maxLength) return text;
  return `${text.slice(0, maxLength)}…`;
}

export const formatLocalDateTime = (value: unknown): string => {
  if (typeof value !== 'string' || !value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
};

function SelectCell({ field, value }: { field: FieldDeclaration; value: string }) {
  const options = useQuery({ ...optionsQueryOptions(field.options ?? 'passCustomizations'), enabled: Boolean(field.options) });
  return <>{(field.choices ?? options.data)?.find((o) => o.value === value)?.label ?? value}</>;
}

export function ResourceCell({ field, row }: { field: FieldDeclaration; row: Row }) {
  const value = row[field.name];
  // A translation not written yet, of a text that is: guests reading that language read the English one.
  if (field.translates && !asText(value).trim() && asText(row[field.translates]).trim())
    return <span className="badge text-bg-warning">Missing</span>;
  switch (cellType(field)) {
    case 'boolean':
      return value === true ? (
        <span className="staff-cell-yes" title="Yes">
          <span aria-hidden="true">✓</span>
          <span className="visually-hidden">Yes</span>
        </span>
      ) : (
        <span className="staff-cell-no" title="No">
          <span aria-hidden="true">✗</span>
          <span className="visually-hidden">No</span>
        </span>
      );
    case 'color': {
      const hex = asText(value).replace('#', '');
      if (!/^[0-9a-f]{6}$/i.test(hex)) return <>{hex}</>;
      return (
        <span className="d-inline-flex align-items-center gap-2">
          <span className="staff-swatch" style={{ backgroundColor: `#${hex}` }} aria-hidden="true" />
          <span className="font-monospace">{hex.toUpperCase()}</span>
        </span>
      );
    }
    case 'currency': {
      const amount = Number(value);
      if (value === null || value === undefined || !Number.isFinite(amount)) return <>{asText(value)}</>;
      const currency = typeof row.currency === 'string' ? row.currency : typeof row.currencyCode === 'string' ? row.currencyCode : 'USD';
      return <>{new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)}</>;
    }
    case 'datetime':
      return <time dateTime={asText(value)}>{formatLocalDateTime(value)}</time>;
    case 'select':
      return <SelectCell field={field} value={asText(value)} />;
    case 'longText': {
      const text = asText(value);
      const cut = truncate(text, field.maxLength);
      return cut === text ? <>{text}</> : <span title={text}>{cut}</span>;
    }
    default:
      return <>{asText(value)}</>;
  }
}

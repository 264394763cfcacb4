// Between the API's values and the modal's inputs, and the modal's save rules.
import type { FieldDeclaration, ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import type { Row } from './resource-api.ts';

export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;
export type FormMode = 'new' | 'edit';

/** Settable in this mode. */
export function isEditable(field: FieldDeclaration, mode: FormMode): boolean {
  if (field.readOnly) return false;
  return mode === 'new' ? !field.notOnCreate : !field.createOnly;
}

/** A new record shows only what can be set; an edited one shows every field. */
export const isShown = (field: FieldDeclaration, mode: FormMode) => mode === 'edit' || isEditable(field, mode);

/** Required for this mode (a new team member's password is required only when creating). */
export function isRequired(field: FieldDeclaration, mode: FormMode): boolean {
  if (!isEditable(field, mode)) return false;
  return Boolean(field.required) || (mode === 'new' && Boolean(field.requiredOnCreate));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the value of a datetime-local input in the browser's zone, to the second. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function fromLocalInput(local: string): string | null {
  if (!local) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export const DEFAULT_COLOR = '#000000';

export function toFormValue(field: FieldDeclaration, value: unknown): FormValue {
  switch (field.type) {
    case 'checkbox':
      return value === true;
    case 'color':
      return typeof value === 'string' && /^#?[0-9a-f]{6}$/i.test(value) ? `#${value.replace('#', '').toLowerCase()}` : DEFAULT_COLOR;
    case 'datetime':
      return typeof value === 'string' ? toLocalInput(value) : '';
    case 'password':
      return '';
    default:
      if (value === null || value === undefined) return '';
      return typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
  }
}

export function initialValues(resource: ResourceDeclaration, row: Row | null): FormValues {
  return Object.fromEntries(resource.fields.map((field) => [field.name, toFormValue(field, row?.[field.name])]));
}

/** Picked colours are stored without the leading #. Empty optional values are null. */
export function toApiValue(field: FieldDeclaration, value: FormValue): unknown {
  if (field.type === 'checkbox') return value === true;
  const text = typeof value === 'string' ? value : '';
  switch (field.type) {
    case 'color':
      return text.replace(/^#/, '').toLowerCase();
    case 'number':
      return text.trim() === '' ? null : Number(text);
    case 'datetime':
      return fromLocalInput(text);
    default:
      return text.trim() === '' ? null : text;
  }
}

export const isBlank = (value: FormValue | undefined) => value === undefined || (typeof value === 'string' && value.trim() === '');

/** The body of a POST or PUT: the fields settable in this mode; a blank password is left out. */
export function toRequestBody(resource: ResourceDeclaration, mode: FormMode, values: FormValues): Row {
  const body: Row = {};
  for (const field of resource.fields) {
    if (!isEditable(field, mode)) continue;
    if (field.writeOnly && isBlank(values[field.name])) continue;
    body[field.name] = toApiValue(field, values[field.name] ?? '');
  }
  return body;
}

export interface SaveCheck {
  canSave: boolean;
  /** Labels of required fields still blank (a requireOneOf rule reads "A or B"). */
  missing: string[];
  changed: boolean;
}

/** Save is blocked while a required field of this mode is blank, or nothing changed. */
export function checkSave(resource: ResourceDeclaration, mode: FormMode, initial: FormValues, values: FormValues): SaveCheck {
  const missing = resource.fields
    .filter((f) => isRequired(f, mode) && f.type !== 'checkbox' && isBlank(values[f.name]))
    .map((f) => f.label);
  const oneOf = resource.requireOneOf;
  if (oneOf && oneOf.every((name) => isBlank(values[name])))
    missing.push(oneOf.map((name) => resource.fields.find((f) => f.name === name)?.label ?? name).join(' or '));
  const changed = resource.fields.some((f) => isEditable(f, mode) && values[f.name] !== initial[f.name]);
  return { canSave: missing.length === 0 && changed, missing, changed };
}

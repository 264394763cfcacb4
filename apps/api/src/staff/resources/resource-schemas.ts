// The validation of every back-office tab, generated from its declaration (the contract's
// staff-tabs.ts describes one): create and update bodies, the list query and the row the
// list answers. Messages name the field's label, so the staff modal can show
// them as they are ("passCustomizationName: Name is required").
import { z } from 'zod';
import { EMAIL_PATTERN, printable } from '@boardwalk/contract/pass';
import { requireOneOfMessage, type FieldDeclaration, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;
/** OFFSET stays a plain integer; nobody pages a million pages deep. */
export const PAGE_MAX = 1_000_000;
export const SEARCH_MAX = 200;
export const PASSWORD_MIN = 12;
/** argon2 takes any length; a cap keeps a huge body from costing a hash. */
export const PASSWORD_MAX = 1024;
/** Text without a declared `max`. */
const TEXT_MAX_DEFAULT = 1000;
const SELECT_MAX = 200;
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;

/** Fields a body may set: everything but read-only ones. */
export const writableFields = (tab: ResourceDeclaration) => tab.fields.filter((f) => !f.readOnly);
/** Fields a row shows: everything but write-only ones (passwords). */
export const readableFields = (tab: ResourceDeclaration) => tab.fields.filter((f) => !f.writeOnly);

/** Textareas keep line breaks and tabs; every other control character is refused. */
const printableText = (multiline: boolean) => (s: string) => printable(multiline ? s.replace(/[\n\r\t]/g, '') : s);

const typeError = (f: FieldDeclaration, what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${f.label} is required` : `${f.label} must be ${what}`;

function textValue(f: FieldDeclaration) {
  const max = f.type === 'select' ? SELECT_MAX : (f.max ?? TEXT_MAX_DEFAULT);
  let schema = z
    .string({ error: typeError(f, 'text') })
    .trim()
    .max(max, `${f.label} must be at most ${max} characters`)
    .refine(printableText(f.type === 'textarea'), `${f.label} must not contain control characters`);
  if (f.format === 'email') schema = schema.refine((s) => s === '' || EMAIL_PATTERN.test(s), `${f.label} must be an email address`);
  return schema;
}

/** One field's value as sent, normalized: what the column holds (dates as Date). */
function valueSchema(f: FieldDeclaration): z.ZodType {
  switch (f.type) {
    case 'select':
      if (f.choices) {
        const values = f.choices.map((c) => c.value) as [string, ...string[]];
        const message = `${f.label} must be one of ${f.choices.map((c) => c.label).join(', ')}`;
        return z
          .string({ error: typeError(f, 'text') })
          .trim()
          .pipe(z.enum(values, { error: message }));
      }
      return textValue(f);
    case 'text':
    case 'textarea':
      return textValue(f);
    case 'date':
      return z.iso.date({ error: typeError(f, 'a date, e.g. 2026-11-21') }).refine((s) => {
        const year = Number(s.slice(0, 4));
        return year >= MIN_YEAR && year <= MAX_YEAR;
      }, `${f.label} must be between the years ${MIN_YEAR} and ${MAX_YEAR}`);
    case 'color':
      return (
        z
          .string({ error: typeError(f, 'a colour of 6 hex digits') })
          .trim()
          .regex(/^#?[0-9a-fA-F]{6}$/, `${f.label} must be a colour of 6 hex digits, e.g. 1b4965`)
          // Colours are stored without the leading #, in lower case.
          .transform((s) => s.replace(/^#/, '').toLowerCase())
      );
    case 'number': {
      const min = f.min ?? 0;
      const max = f.maxValue ?? 2_147_483_647;
      if (f.decimals) {
        const range = `${f.label} must be a number from ${min} to ${max} with at most ${f.decimals} decimals`;
        const scale = 10 ** f.decimals;
        return z
          .number({ error: typeError(f, 'a number') })
          .min(min, range)
          .max(max, range)
          .refine((n) => Math.abs(Math.round(n * scale) - n * scale) < 1e-6, range);
      }
      const range = `${f.label} must be a whole number from ${min} to ${max}`;
      return z
        .number({ error: typeError(f, 'a number') })
        .int(range)
        .min(min, range)
        .max(max, range);
    }
    case 'datetime':
      return z.iso
        .datetime({
          offset: true,
          abort: true,
          error: typeError(f, 'a date and time in ISO 8601 with an offset, e.g. 2026-11-21T11:02:09-08:00'),
        })
        .refine((s) => {
          const year = new Date(Date.parse(s)).getUTCFullYear();
          return year >= MIN_YEAR && year <= MAX_YEAR;
        }, `${f.label} must be between the years ${MIN_YEAR} and ${MAX_YEAR}`)
        .transform((s) => new Date(s));
    case 'checkbox':
      return z.boolean({ error: typeError(f, 'true or false') });
    case 'password':
      // Taken as typed (never trimmed): spaces may be part of a password.
      return z
        .string({ error: typeError(f, 'text') })
        .min(PASSWORD_MIN, `${f.label} must be at least ${PASSWORD_MIN} characters`)
        .max(PASSWORD_MAX, `${f.label} must be at most ${PASSWORD_MAX} characters`)
        .refine(printable, `${f.label} must not contain control characters`);
  }
}

/** Blank text (after trimming) counts as empty: null for an optional field, refused for a required one. */
const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const blankable = (f: FieldDeclaration) =>
  f.type === 'text' || f.type === 'textarea' || f.type === 'select' || f.type === 'date' || f.type === 'datetime' || f.type === 'number';

/**
 * A field of a body. `mustHave`: absent or blank is refused. Otherwise absent leaves the
 * column alone (or to its default), and blank clears it where the column may be empty.
 */
function bodyField(f: FieldDeclaration, mustHave: boolean, mode: 'create' | 'update'): z.ZodType {
  const value = valueSchema(f);
  if (f.type === 'password') {
    // Blank on update keeps the current password (the modal's "Change Password" left empty).
    if (mode === 'update')
      return z
        .union([z.literal(''), z.null(), value])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v));
    return mustHave ? value : value.optional();
  }
  // z.preprocess, not a refine on z.unknown(): the OpenAPI document then shows the value's type.
  if (mustHave || f.required) {
    // Present (or, when creating, needed) and not blank: blank counts as absent, which the
    // value's own message calls "<Label> is required".
    const present = z.preprocess((v) => (isBlank(v) ? undefined : v), value);
    return mustHave ? present : present.optional();
  }
  if (!blankable(f)) return value.optional();
  return z.preprocess((v) => (isBlank(v) ? null : v), value.nullable()).optional();
}

/**
 * A strict object that reports each unknown field at its own path ("colour: Unknown field"),
 * as the integration API's bodies do; the output keeps only the keys of `keep`.
 */
function bodyObject(shape: Record<string, z.ZodType>, keep: Set<string>) {
  const known = new Set(Object.keys(shape));
  return z
    .looseObject(shape)
    .superRefine(
      (value, ctx) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
        for (const key of Object.keys(value)) if (!known.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'Unknown field' });
      },
      { when: () => true },
    )
    .transform(
      (value) =>
        Object.fromEntries(Object.entries(value).filter(([key, v]) => keep.has(key) && v !== undefined)) as Record<string, unknown>,
    )
    .meta({ additionalProperties: false });
}

/**
 * Sent back unchanged by a client that posts the whole row: accepted and ignored, as long as it
 * is a value a row shows (an id, a read-only text, number or date), not a nested object or list
 * (a 2,000-deep object in a tier's id was taken with a 201).
 */
const ignored = z
  .union([z.string().max(TEXT_MAX_DEFAULT), z.number(), z.boolean(), z.null()], {
    error: 'must be the value the list shows (text, a number, true or false), or left out',
  })
  .optional();

/** POST {api}: required (and requiredOnCreate) fields present; notOnCreate refused; read-only ignored. */
export function createBodySchema(tab: ResourceDeclaration) {
  const shape: Record<string, z.ZodType> = { [tab.idField]: ignored };
  const keep = new Set<string>();
  for (const f of tab.fields) {
    if (f.readOnly) shape[f.name] = ignored;
    else if (f.notOnCreate) shape[f.name] = z.undefined({ error: `${f.label} cannot be set when creating` }).optional();
    else {
      shape[f.name] = bodyField(f, Boolean(f.required || f.requiredOnCreate), 'create');
      keep.add(f.name);
    }
  }
  const body = bodyObject(shape, keep);
  const oneOf = tab.requireOneOf;
  if (!oneOf) return body;
  return body.refine((values) => oneOf.some((name) => values[name] !== null && values[name] !== undefined), {
    message: requireOneOfMessage(tab),
    path: [oneOf[0]!],
  });
}

/**
 * PUT {api}{id}: any subset of the writable fields (what is absent stays); a required field
 * sent blank is refused. Create-only fields are compared with the stored row by the service.
 */
export function updateBodySchema(tab: ResourceDeclaration) {
  const shape: Record<string, z.ZodType> = { [tab.idField]: ignored };
  const keep = new Set<string>();
  for (const f of tab.fields) {
    if (f.readOnly) shape[f.name] = ignored;
    else {
      shape[f.name] = bodyField(f, false, 'update');
      keep.add(f.name);
    }
  }
  return bodyObject(shape, keep);
}

/** GET {api}?page&pageSize&sort&direction&search (unknown parameters, e.g. cache busters, ignored). */
export function listQuerySchema(tab: ResourceDeclaration) {
  const sortable = readableFields(tab)
    .filter((f) => !f.computed)
    .map((f) => f.name) as [string, ...string[]];
  const whole = (name: string, max: number, fallback: number) =>
    z.coerce
      .number({ error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(1, `${name} must be at least 1`)
      .max(max, `${name} must be at most ${max}`)
      .default(fallback);
  return z.object({
    page: whole('page', PAGE_MAX, 1),
    pageSize: whole('pageSize', PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    sort: z.enum(sortable, { error: `sort must be one of ${sortable.join(', ')}` }).optional(),
    direction: z.enum(['asc', 'desc'], { error: 'direction must be asc or desc' }).optional(),
    search: z
      .string()
      .trim()
      .max(SEARCH_MAX, `search must be at most ${SEARCH_MAX} characters`)
      .refine(printable, 'search must not contain control characters')
      .optional(),
    ...(tab.filter && { filter: filterSchema(tab.filter) }),
  });
}

function filterSchema(filter: NonNullable<ResourceDeclaration['filter']>) {
  const values = filter.options.map((o) => o.value) as [string, ...string[]];
  return z.enum(values, { error: `filter must be one of ${values.join(', ')}` }).optional();
}
export type ListQuery = z.infer<ReturnType<typeof listQuerySchema>>;

/** A row as the list answers it: API field names, writeOnly fields left out (also by serialization). */
export function rowSchema(tab: ResourceDeclaration) {
  const shape: Record<string, z.ZodType> = { [tab.idField]: tab.idType === 'integer' ? z.number().int() : z.guid() };
  for (const f of readableFields(tab)) {
    shape[f.name] =
      f.type === 'checkbox'
        ? z.boolean()
        : f.type === 'number'
          ? z.number().nullable()
          : f.type === 'datetime'
            ? z.iso.datetime().nullable()
            : f.type === 'date'
              ? z.iso.date().nullable()
              : z.string().nullable();
  }
  return z.object(shape);
}

export const idParams = z.object({ id: z.guid('The id must be a GUID') });

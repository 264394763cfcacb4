// Test support for the whole-API fuzz: fast-check arbitraries made from the JSON schemas of
// the OpenAPI document (/docs/json), and the hostile values and request bodies a client may
// send whatever the schema says.
import fc from 'fast-check';

/** The subset of JSON Schema (OpenAPI 3.0 flavour) that the route schemas use. */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  parameters: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: JsonSchema }[];
  body?: JsonSchema;
  security: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation['parameters'];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: Record<string, unknown>[];
      }
    >
  >;
}

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase() as Operation['method'],
      path,
      parameters: op.parameters ?? [],
      ...(op.requestBody?.content?.['application/json']?.schema && { body: op.requestBody.content['application/json'].schema }),
      security: (op.security ?? []).flatMap((s) => Object.keys(s)),
    })),
  );
}

/** Characters that break naive code: NUL, controls, a lone surrogate of each kind, a BOM, RTL override, a combining mark. */
const nasty = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\n',
  '\r\n',
  '\u001b',
  '\u007f',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  '\u0301',
  '%00',
  '\\',
  '"',
  "'",
  '../',
);

/** Strings a validator must refuse or survive: NUL and lone surrogates among text, huge ones, blanks, look-alike numbers. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), nasty, fc.string({ maxLength: 6 })).map(([a, n, b]) => a + n + b) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  // Up to ~200 kB: far above every maxLength, below the 1 MB body limit.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '9', '\u00e9', '\ud83c\udfa2'), fc.integer({ min: 1_000, max: 100_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('', ' ', '\t', 'null', 'undefined', 'NaN', '-0', '1e309', '0x10', '9'.repeat(40), '-1', '[]', '{}', 'true'),
  },
);

/** Any JSON value of the wrong kind, prototype-polluting objects included. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom({ __proto__: null, constructor: { prototype: { polluted: true } } }, [[[[[[]]]]]], { toString: 'x', valueOf: 1 }),
);

const formatted: Record<string, fc.Arbitrary<string>> = {
  email: fc.emailAddress(),
  'date-time': fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uuid: fc.uuid(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
};

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 40, 300);
  const plain = fc.string({ minLength: Math.min(schema.minLength ?? 0, maxLength), maxLength });
  // A format or pattern, when the schema has one, most of the time: a body passes validation only if every field does.
  if (schema.format && formatted[schema.format])
    return fc.oneof({ weight: 6, arbitrary: formatted[schema.format]! }, { weight: 1, arbitrary: plain });
  if (schema.pattern) {
    for (const flags of ['', 'u']) {
      try {
        const matching = fc.stringMatching(new RegExp(schema.pattern, flags)).map((v) => v.slice(0, schema.maxLength ?? v.length));
        return fc.oneof({ weight: 6, arbitrary: matching }, { weight: 1, arbitrary: plain });
      } catch {
        // A pattern fast-check cannot generate from (lookarounds): plain strings instead.
      }
    }
  }
  return plain;
}

/** Values that name real rows (the demo's order ids, barcodes...), by property or parameter name. */
export type KnownValues = Record<string, readonly string[]>;

const withKnown = (arbitrary: fc.Arbitrary<unknown>, values: readonly string[] | undefined) =>
  values?.length ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary }) : arbitrary;

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e9);
  const max = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e9);
  const lo = Math.max(min, Number.MIN_SAFE_INTEGER);
  const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
  return integer
    ? fc.oneof(fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }), fc.constantFrom(Math.ceil(lo), Math.floor(hi)))
    : fc.double({ min: lo, max: hi, noNaN: true });
}

/** Values that fit the schema (as far as its keywords go), now and then with extra properties. */
export function arbitraryFor(schema: JsonSchema | undefined, known: KnownValues = {}, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const alternatives = schema.anyOf ?? schema.oneOf;
  const withNull = (a: fc.Arbitrary<unknown>) =>
    schema.nullable ? fc.oneof({ weight: 5, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) }) : a;
  if (alternatives) return withNull(fc.oneof(...alternatives.map((s) => arbitraryFor(s, known, depth + 1))));
  if (schema.allOf) return withNull(arbitraryFor(Object.assign({}, ...schema.allOf) as JsonSchema, known, depth + 1));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return withNull(fc.constantFrom(...schema.enum));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryFor({ ...schema, type }, known, depth)));
  switch (types[0]) {
    case 'string':
      return withNull(stringFor(schema));
    case 'integer':
      return withNull(numberFor(schema, true));
    case 'number':
      return withNull(numberFor(schema, false));
    case 'boolean':
      return withNull(fc.boolean());
    case 'null':
      return fc.constant(null);
    case 'array':
      return withNull(
        fc.array(arbitraryFor(schema.items, known, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
        }),
      );
    case 'object':
    case undefined: {
      if (!schema.properties && types[0] === undefined) return fc.jsonValue({ maxDepth: 2 });
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, withKnown(arbitraryFor(s, known, depth + 1), known[key])])),
        { requiredKeys: (schema.required ?? []).filter((k) => k in properties) },
      );
      return withNull(record);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => pathsOf(v, [...prefix, i]))];
  if (typeof value === 'object' && value !== null)
    return [prefix, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
  return [prefix];
}

/** One change a hostile client makes to a body that fits the schema. */
export interface BodyMutation {
  kind: 'none' | 'replace' | 'delete' | 'extra-key' | 'prototype-key' | 'broken-json' | 'not-json' | 'invalid-utf8' | 'empty';
  at: number;
  value: unknown;
  key: string;
}

export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.record({
  kind: fc.oneof(
    { weight: 5, arbitrary: fc.constant('none' as const) },
    { weight: 8, arbitrary: fc.constant('replace' as const) },
    { weight: 2, arbitrary: fc.constant('delete' as const) },
    { weight: 1, arbitrary: fc.constant('extra-key' as const) },
    { weight: 2, arbitrary: fc.constant('prototype-key' as const) },
    { weight: 2, arbitrary: fc.constant('broken-json' as const) },
    { weight: 1, arbitrary: fc.constant('not-json' as const) },
    { weight: 1, arbitrary: fc.constant('invalid-utf8' as const) },
    { weight: 1, arbitrary: fc.constant('empty' as const) },
  ),
  at: fc.nat(),
  value: hostileValue,
  key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', ''),
});

/** The request body text (or bytes) and content type for a body and a mutation. */
export function mutatedBody(body: unknown, m: BodyMutation): { payload: string | Buffer; contentType: string } | undefined {
  const json = 'application/json';
  switch (m.kind) {
    case 'empty':
      return undefined;
    case 'not-json':
      return { payload: JSON.stringify(body) ?? '', contentType: 'text/plain' };
    case 'broken-json': {
      const text = JSON.stringify(body) ?? 'null';
      const cut = text.slice(0, m.at % Math.max(1, text.length));
      return { payload: [cut, `${text},`, `{${text}`, "{'a': 1}", '{"a": 1,}', 'NaN', '\u0000', ''][m.at % 8]!, contentType: json };
    }
    case 'invalid-utf8':
      return {
        payload: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
        contentType: json,
      };
    case 'prototype-key': {
      // As JSON text: an object literal with a __proto__ key would set its prototype instead.
      const text = JSON.stringify(body) ?? 'null';
      const extra = `${JSON.stringify(m.key)}:${JSON.stringify(m.value ?? null) ?? 'null'}`;
      return { payload: text.startsWith('{') ? `{${extra}${text === '{}' ? '' : ','}${text.slice(1)}` : `{${extra}}`, contentType: json };
    }
    default:
      return { payload: JSON.stringify(mutate(body, m)) ?? 'null', contentType: json };
  }
}

/** The body once for each place in it (the whole, every member, every item), that place a text holding a NUL. */
export function withNulAtEachPlace(body: unknown): unknown[] {
  const places = pathsOf(JSON.parse(JSON.stringify(body ?? null))).length;
  return Array.from({ length: places }, (_, at) => mutate(body, { kind: 'replace', at, value: 'a\u0000b', key: '' }));
}

function mutate(body: unknown, m: BodyMutation): unknown {
  if (m.kind === 'none') return body;
  const copy = JSON.parse(JSON.stringify(body ?? null)) as Json;
  const paths = pathsOf(copy);
  const path = paths[m.at % paths.length]!;
  if (path.length === 0) {
    if (m.kind === 'replace') return m.value;
    if (m.kind === 'extra-key' && typeof copy === 'object' && copy !== null && !Array.isArray(copy))
      return { ...copy, [m.key || 'extra']: m.value };
    return copy;
  }
  const parent = path.slice(0, -1).reduce<Json>((node, k) => (node as Record<string, Json>)[k]!, copy) as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (m.kind === 'replace') parent[last] = m.value as Json;
  else if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const node = parent[last];
    if (typeof node === 'object' && node !== null && !Array.isArray(node))
      (node as Record<string, Json>)[m.key || 'extra'] = m.value as Json;
    else parent[last] = m.value as Json;
  }
  return copy;
}

/** A path or query value: mostly one the schema allows, else a hostile one or a malformed escape. */
export function parameterValue(
  schema: JsonSchema | undefined,
  known?: readonly string[],
): fc.Arbitrary<{ raw: string } | { value: string }> {
  const fitting = withKnown(arbitraryFor(schema), known).map((v) => ({ value: typeof v === 'string' ? v : (JSON.stringify(v) ?? '') }));
  return fc.oneof(
    { weight: 6, arbitrary: fitting },
    { weight: 3, arbitrary: hostileString.map((value) => ({ value })) },
    // Sent as is: broken percent-escapes and an encoded slash.
    { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%ZZ', 'a%2Fb', '%C0%80', '%ED%A0%80').map((raw) => ({ raw })) },
  );
}

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) as its WTF-8 bytes, as a hostile client sends it. */
export function encodeParameter(v: { raw: string } | { value: string }): string {
  if ('raw' in v) return v.raw;
  try {
    return encodeURIComponent(v.value);
  } catch {
    return [...v.value]
      .map((c) => {
        const code = c.charCodeAt(0);
        if (c.length === 1 && code >= 0xd800 && code <= 0xdfff) {
          return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
        return encodeURIComponent(c);
      })
      .join('');
  }
}

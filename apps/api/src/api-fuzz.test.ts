// The whole API, fuzzed from its own OpenAPI document (/docs/json): for every route, path
// parameters, queries and bodies generated from the route's schemas, and hostile variants
// (wrong types, huge strings, NUL and lone surrogates, prototype keys, broken JSON, bad
// escapes), sent as a guest, as a staff member holding every permission, as the integration
// key and with a ticket share token. Never a 5xx; after every 4xx, the row count of every
// table is what it was before the request. At least 10,000 requests per run.
import { proofOf } from '../test-support/loyalty.fixtures.ts';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { permissions } from '@boardwalk/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arbitraryFor,
  bodyMutation,
  encodeParameter,
  mutatedBody,
  operationsOf,
  parameterValue,
  type KnownValues,
  withNulAtEachPlace,
  type Operation,
} from '../test-support/openapi-fuzz.ts';
import { loginAs } from '../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../test-support/test-app.ts';

const MIN_CASES = 10_000;

const barcodes = [
  '2400000000000011',
  '3500000000000028',
  '1000000000000035',
  '1000000000000042',
  '1000000000000059',
  '3400000000000017',
  '1000000000000066',
  '1000000000000073',
  '1000000000000080',
  '99000001',
];
const memberEmail = 'fuzz.member@example.com';
/** The demo's rows (README "Demo data"), so that generated calls also reach past "not found". */
const known: KnownValues = {
  orderId: ['10000001', '10000002', '10000003', '10000004', '10000005', '10000006', '10000007', '10000008', '10000009', '0'],
  barcode: barcodes,
  ticket: barcodes,
  serialNumber: barcodes,
  email: [memberEmail, 'rosa.diaz@example.com'],
  phone: ['+15555550123', '5555550123'],
  checkNumber: ['4012'],
  checkId: ['FB07-20261114-4012'],
  reservationNumber: ['H7734001', 'H7734002'],
  passTypeIdentifier: ['pass.com.boardwalk.demo'],
  hashUrl: [
    'd__6Hzm8fzraBU5wQzPddkB6TF2CbDfKZEyT92j9aL5SdtG7WfNBR7nEY4inwba1JBOvQqkgRP2II7Yw4A-7Hp8i',
    '5caVpR1TftIfBktL6q3DSuvHgHeKHLGTxMw-EE-fvLOonF1X039KjkB6SqGpt9XtBxrCfCk4TunZTZ8xNZ79tjbQ',
  ],
};

let t: TestApp;
let operations: Operation[];
let staffHeaders: { authorization: string } = { authorization: '' };
let shareHeaders: { authorization: string } = { authorization: '' };
/**
 * Rows inserted, updated and deleted per table since the start, kept by triggers this test
 * adds to its own database (transactional: a write rolled back is not counted). Stricter
 * than comparing row counts: an insert and a delete never cancel, and updates count too.
 */
const WRITES_TABLE = 'zz_fuzz_writes';
const writes = async () => {
  const { rows } = await t.database.executeSql(`select tbl, op, n from ${WRITES_TABLE} where n > 0 order by tbl, op`, []);
  return Object.fromEntries((rows as { tbl: string; op: string; n: number }[]).map((r) => [`${r.op} ${r.tbl}`, Number(r.n)]));
};

async function watchWrites() {
  const { rows } = await t.database.executeSql(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'pgboss' and table_name = 'job'))
       -- The Dashboard's counts: a failed lookup is counted on purpose, and written by a timer.
       and table_name <> 'activity_counts'
       and not exists (select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
                       where n.nspname = table_schema and c.relname = table_name)`,
    [],
  );
  const tables = (rows as { s: string; t: string }[]).map(({ s, t: name }) => `"${s}"."${name}"`);
  await t.database.executeSql(`
    create table ${WRITES_TABLE} (tbl text not null, op text not null, n bigint not null default 0, primary key (tbl, op));
    create function zz_fuzz_count() returns trigger language plpgsql as $$
    begin
      insert into ${WRITES_TABLE} as w (tbl, op, n) values (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP, 1)
        on conflict (tbl, op) do update set n = w.n + 1;
      return null;
    end $$;
    ${tables.map((name, i) => `create trigger zz_fuzz_${i} after insert or update or delete on ${name} for each row execute function zz_fuzz_count();`).join('\n')}
  `);
  return tables.length;
}

const allPermissions = async () => (await t.database.db.select({ name: permissions.name }).from(permissions)).map((p) => p.name);
const logInStaff = async () => {
  staffHeaders = (await loginAs(t.app, { accessLevel: 1000, permissions: await allPermissions() })).headers;
};

beforeAll(async () => {
  // The demo gives the routes rows to find; no workers, so only requests write.
  t = await createTestApp({ env: { DEMO_DATA: 'true', DELIVERY_WORKERS: 'false' } });
  operations = operationsOf((await t.app.inject('/docs/json')).json());
  await logInStaff();
  // The demo's Stored Value Card: its owner gets a ticket share token.
  const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '10000002', barcode: '3500000000000028' } });
  shareHeaders = { authorization: `Bearer ${login.json().ticketShareToken as string}` };
  const member = await t.app.inject({
    method: 'POST',
    url: '/api/loyalty/create',
    payload: { email: memberEmail, firstName: 'Fuzz', lastName: 'Member', proof: proofOf(t, memberEmail) },
  });
  known.userID = [member.body];
  expect(await watchWrites()).toBeGreaterThan(25);
}, 120_000);
afterAll(() => t.close());

type Identity = 'guest' | 'staff' | 'integration' | 'share';

/** Who a route expects; a call now and then comes from someone else. */
function expectedIdentity(op: Operation): Identity {
  if (op.security.includes('integrationKey')) return 'integration';
  if (op.security.includes('ticketShareToken')) return 'share';
  if (op.security.includes('staffToken') || /^\/(app|api\/admin|api\/team-member)\//.test(op.path)) return 'staff';
  return 'guest';
}

const headersOf = (identity: Identity): Record<string, string> =>
  identity === 'staff' ? staffHeaders : identity === 'integration' ? integrationAuth : identity === 'share' ? shareHeaders : {};

function caseFor(op: Operation) {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  return fc.record({
    identity: fc.oneof(
      { weight: 9, arbitrary: fc.constant(expectedIdentity(op)) },
      { weight: 1, arbitrary: fc.constantFrom<Identity>('guest', 'staff', 'integration', 'share') },
    ),
    path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, parameterValue(p.schema, known[p.name])]))),
    query: fc.array(
      fc.oneof(
        {
          weight: 4,
          arbitrary: queryParams.length
            ? fc.constantFrom(...queryParams).chain((p) => fc.tuple(fc.constant(p.name), parameterValue(p.schema, known[p.name])))
            : fc.constant(null),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'x', 'page[]', ''), parameterValue(undefined)) },
      ),
      { maxLength: 4 },
    ),
    body: op.body ? arbitraryFor(op.body, known) : fc.constant(undefined),
    mutation: bodyMutation,
  });
}

/**
 * The writes a 4xx may make: none, except that a failed staff login is audited
 * (staff/auth/auth.service.ts: one 'login-failed' entry, tested in auth.test.ts), and a wrong
 * loyalty code uses one of its code's tries (guest/loyalty/loyalty-email-codes.repo.ts, tested
 * in loyalty.test.ts).
 */
function allowedAfter(
  op: Operation,
  status: number,
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  if (op.method === 'POST' && op.path === '/app/login/' && status === 401) {
    return { ...before, 'INSERT public.audit_log': (before['INSERT public.audit_log'] ?? 0) + 1 };
  }
  const tries = 'UPDATE public.loyalty_email_codes';
  if (op.method === 'POST' && op.path === '/api/loyalty/confirm' && status === 400 && (after[tries] ?? 0) === (before[tries] ?? 0) + 1) {
    return { ...before, [tries]: after[tries]! };
  }
  return before;
}

type Case = ReturnType<typeof caseFor> extends fc.Arbitrary<infer C> ? C : never;

const statuses: Record<string, number> = {};
let cases = 0;

async function send(op: Operation, c: Case) {
  const url =
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeParameter(c.path[name] ?? { value: 'x' })) +
    (c.query.length ? `?${c.query.flatMap((q) => (q ? [`${encodeURIComponent(q[0])}=${encodeParameter(q[1])}`] : [])).join('&')}` : '');
  const body =
    op.method === 'GET' || op.method === 'DELETE'
      ? c.mutation.kind === 'broken-json'
        ? mutatedBody(c.body, c.mutation)
        : undefined
      : mutatedBody(c.body, c.mutation);
  const octet = randomBytes(2);
  return t.app.inject({
    method: op.method,
    url,
    headers: { ...headersOf(c.identity), ...(body && { 'content-type': body.contentType }) },
    ...(body && { payload: body.payload }),
    // A new address each time: the failure throttles would otherwise answer 429 to most calls.
    remoteAddress: `10.${octet[0]}.${octet[1]}.${cases % 250}`,
  });
}

describe('every route of the OpenAPI document', () => {
  it(`answers no 5xx and writes nothing on a 4xx, over at least ${MIN_CASES} requests`, async () => {
    // Logging out would end the staff session the other calls use.
    const routes = operations.filter((op) => !op.path.startsWith('/app/logout/'));
    expect(routes.length).toBeGreaterThan(70);
    const runsPerRoute = Math.ceil(MIN_CASES / routes.length);
    const started = Date.now();
    let checkedFourXx = 0;
    const routeSeconds: [string, number][] = [];
    for (const op of routes) {
      const routeStarted = Date.now();
      /** Row counts before the next request, or undefined after a request that may have written. */
      let baseline: Record<string, number> | undefined;
      await fc.assert(
        fc.asyncProperty(caseFor(op), async (c) => {
          baseline ??= await writes();
          const res = await send(op, c);
          cases++;
          const key = `${op.method} ${op.path} ${res.statusCode}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
          expect(res.statusCode, `${op.method} ${op.path}: ${res.body.slice(0, 500)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const before = baseline;
            const after = await writes();
            // Kept coherent while fast-check shrinks a failure.
            baseline = after;
            expect(after, `${op.method} ${op.path} answered ${res.statusCode} and wrote: ${res.body.slice(0, 300)}`).toEqual(
              allowedAfter(op, res.statusCode, before, after),
            );
            checkedFourXx++;
          } else {
            baseline = undefined;
          }
        }),
        { numRuns: runsPerRoute },
      );
      // A staff call that succeeded may have changed what the session may do: log in again if so.
      if ((await t.app.inject({ method: 'GET', url: '/api/team-member/', headers: staffHeaders })).statusCode !== 200) await logInStaff();
      routeSeconds.push([`${op.method} ${op.path}`, (Date.now() - routeStarted) / 1000]);
    }
    const seconds = (Date.now() - started) / 1000;
    const byClass = Object.entries(statuses).reduce<Record<string, number>>((acc, [key, n]) => {
      const cls = `${key.slice(key.lastIndexOf(' ') + 1, -2)}xx`;
      acc[cls] = (acc[cls] ?? 0) + n;
      return acc;
    }, {});
    console.log(
      `api fuzz: ${cases} requests on ${routes.length} routes in ${seconds.toFixed(1)} s; ${checkedFourXx} 4xx checked for writes (inserts, updates, deletes); ${JSON.stringify(byClass)}`,
    );
    // FUZZ_STATUSES=FILE: the answers per route and status, to see how deep the generated calls reach.
    if (process.env.FUZZ_STATUSES) writeFileSync(process.env.FUZZ_STATUSES, JSON.stringify(statuses, null, 1));
    console.log(
      `slowest routes: ${routeSeconds
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([r, sec]) => `${r} ${sec.toFixed(1)} s`)
        .join('; ')}`,
    );
    expect(cases).toBeGreaterThanOrEqual(MIN_CASES);
    // The triggers see what the successful calls wrote (so they would see a 4xx's).
    const written = await writes();
    expect(Object.keys(written).filter((k) => k.startsWith('INSERT ')).length, JSON.stringify(written)).toBeGreaterThan(3);
    // The generated values reach past validation: some calls succeed, on many routes.
    const succeeding = new Set(
      Object.keys(statuses)
        .filter((k) => / 2\d\d$/.test(k))
        .map((k) => k.slice(0, k.lastIndexOf(' '))),
    );
    expect(succeeding.size).toBeGreaterThan(20);
  }, 600_000);
});

describe('a NUL anywhere', () => {
  // PostgreSQL stores no NUL in text or jsonb: each place of each route's body, path and query
  // gets one in turn, from the caller the route expects, and is refused like any invalid value.
  it('answers 400 naming the field, and writes nothing, in every place of every route', async () => {
    const before = await writes();
    let sent = 0;
    for (const op of operations.filter((o) => !o.path.startsWith('/app/logout/'))) {
      const params = Object.fromEntries(
        op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, encodeURIComponent(known[p.name]?.[0] ?? '1')]),
      );
      const url = (values: Record<string, string>, query = '') => op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!) + query;
      const requests = [
        ...Object.keys(params).map((name) => ({ url: url({ ...params, [name]: 'a%00b' }), body: undefined as unknown })),
        ...op.parameters.filter((p) => p.in === 'query').map((p) => ({ url: url(params, `?${p.name}=a%00b`), body: undefined })),
      ];
      if (op.body && op.method !== 'GET') {
        const [valid] = fc.sample(arbitraryFor(op.body, known), { numRuns: 1, seed: 47 });
        requests.push(...withNulAtEachPlace(valid).map((body) => ({ url: url(params), body })));
      }
      for (const { url: at, body } of requests) {
        const res = await t.app.inject({
          method: op.method,
          url: at,
          headers: headersOf(expectedIdentity(op)),
          ...(body !== undefined && {
            payload: JSON.stringify(body),
            headers: { ...headersOf(expectedIdentity(op)), 'content-type': 'application/json' },
          }),
          remoteAddress: `10.47.${(sent >> 8) & 255}.${sent & 255}`,
        });
        sent++;
        expect(res.statusCode, `${op.method} ${at} ${JSON.stringify(body)}: ${res.body.slice(0, 300)}`).toBe(400);
        expect(res.json<{ error: string }>().error).toBe('VALIDATION_FAILED');
      }
    }
    expect(sent).toBeGreaterThan(300);
    expect(await writes()).toEqual(before);
  }, 300_000);
});

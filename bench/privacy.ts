// npm run bench:privacy: the staff export of one person (POST /api/admin/privacy/export, with a
// real login, through app.inject) who has 50 tickets (purchaser, holder and registrant of 10
// orders of 5), a share made to them and a loyalty account, among BENCH_GUESTS (100,000) other
// guests, each with an order, a ticket, a registration and a share. Beside it, the baseline:
// the same person's tickets as one bare SQL statement (the three index lookups, no app), on the
// same database. Prints each one's calls per second, median and p99, and the ratio.
// Then the staff erasure (POST /api/admin/privacy/erase) of BENCH_ERASURES people shaped the same
// (50 tickets, a share made to them, a loyalty account), one call each since an erasure uses its
// person up, beside a bare statement that blanks as many other such people's registrations,
// tickets and orders: the erasure's p99 goal is 1 s.
//
//   BENCH_GUESTS=100000   other guests
//   BENCH_SECONDS=5       measured seconds per side (after 1 s of warm-up)
//   BENCH_ERASURES=100    people erased per side
//   BENCH_DB=pglite       one database only (pglite or postgres); default both when PostgreSQL answers
//   TEST_DATABASE_URL     PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { loadavg } from 'node:os';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import type { PrivacyErasure, PrivacyExport } from '@boardwalk/contract/privacy';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { benchHeader, databaseKinds, fmt, measureCalls, measureSequential, positiveNumber, type Measurement } from './bench-support.ts';

const guests = positiveNumber('BENCH_GUESTS', 100_000);
const seconds = positiveNumber('BENCH_SECONDS', 5);
const erasures = positiveNumber('BENCH_ERASURES', 100);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const ADMIN_EMAIL = 'bench-admin@example.com';
const ADMIN_PASSWORD = 'bench admin password';
const PERSON = 'the.person@example.com';
/** The people erased: 1..erasures by the app, erasures+1..2*erasures by the bare statement. */
const erasable = (k: number) => `erase-${k}@example.com`;

/** The other guests (one order, ticket, registration and share each) and the person's 50 tickets. */
const seed = [
  `insert into orders (order_id, order_date, purchaser_first_name, purchaser_last_name, purchaser_email, purchaser_phone)
    select 'G' || g, now(), 'Guest', 'Number ' || g, 'guest' || g || '@example.com', '310' || lpad(g::text, 7, '0')
    from generate_series(1, ${guests}) g`,
  `insert into tickets (barcode, order_id, position, product, holder_first_name, holder_last_name, holder_email, holder_phone)
    select 'T' || g, 'G' || g, 1, 'Day Ticket', 'Guest', 'Number ' || g, 'guest' || g || '@example.com', '310' || lpad(g::text, 7, '0')
    from generate_series(1, ${guests}) g`,
  `insert into registrations (barcode, first_name, last_name, email, phone)
    select 'T' || g, 'Guest', 'Number ' || g, 'guest' || g || '@example.com', '310' || lpad(g::text, 7, '0') from generate_series(1, ${guests}) g`,
  `insert into ticket_shares (barcode, hash_url_hash, first_name, last_name, email)
    select 'T' || g, 'h' || g, 'Friend', 'Of ' || g, 'friend' || g || '@example.com' from generate_series(1, ${guests}) g`,
  `insert into orders (order_id, order_date, purchaser_first_name, purchaser_last_name, purchaser_email, purchaser_phone)
    select 'P' || o, now(), 'The', 'Person', '${PERSON}', '4155550100' from generate_series(1, 10) o`,
  `insert into tickets (barcode, order_id, position, product, holder_first_name, holder_last_name, holder_email)
    select 'PT' || o || '-' || p, 'P' || o, p, 'Season Pass', 'The', 'Person', '${PERSON}' from generate_series(1, 10) o, generate_series(1, 5) p`,
  `insert into registrations (barcode, first_name, last_name, email, phone, opt_in_sms_marketing)
    select barcode, 'The', 'Person', '${PERSON}', '4155550100', true from tickets where order_id like 'P%'`,
  `insert into ticket_shares (barcode, hash_url_hash, first_name, last_name, email) values ('T1', 'to-the-person', 'The', 'Person', '${PERSON}')`,
  `insert into loyalty_accounts (email, first_name, last_name, created_by) values ('${PERSON}', 'The', 'Person', 'staff')`,
  `insert into orders (order_id, order_date, purchaser_first_name, purchaser_last_name, purchaser_email, purchaser_phone)
    select 'E' || k || '-' || o, now(), 'Erased', 'Person ' || k, 'erase-' || k || '@example.com', '41555' || lpad(k::text, 5, '0')
    from generate_series(1, ${2 * erasures}) k, generate_series(1, 10) o`,
  `insert into tickets (barcode, order_id, position, product, holder_first_name, holder_last_name, holder_email)
    select o.order_id || '-' || p, o.order_id, p, 'Season Pass', o.purchaser_first_name, o.purchaser_last_name, o.purchaser_email
    from orders o, generate_series(1, 5) p where o.order_id like 'E%'`,
  `insert into registrations (barcode, first_name, last_name, email, phone, opt_in_sms_marketing)
    select t.barcode, t.holder_first_name, t.holder_last_name, t.holder_email, o.purchaser_phone, true
    from tickets t join orders o on o.order_id = t.order_id where t.order_id like 'E%'`,
  `insert into ticket_shares (barcode, hash_url_hash, first_name, last_name, email)
    select 'T' || k, 'to-erase-' || k, 'Erased', 'Person ' || k, 'erase-' || k || '@example.com' from generate_series(1, ${2 * erasures}) k`,
  `insert into loyalty_accounts (email, first_name, last_name, created_by)
    select 'erase-' || k || '@example.com', 'Erased', 'Person ' || k, 'staff' from generate_series(1, ${2 * erasures}) k`,
  `analyze`,
];

/** The baseline: the person's tickets by the same three index lookups, one bare statement. */
const bareTickets = `select t.barcode, t.order_id, t.product, r.email from tickets t join orders o on o.order_id = t.order_id
  left join registrations r on r.barcode = t.barcode where t.barcode in (
    select barcode from tickets where lower(holder_email) = $1
    union select t2.barcode from tickets t2 join orders o2 on o2.order_id = t2.order_id where lower(o2.purchaser_email) = $1
    union select barcode from registrations where lower(email) = $1)`;

/** The erasure's baseline: one statement blanking a person's registrations, tickets and orders. */
const bareErase = `with r as (update registrations set first_name = '', last_name = '', email = '', phone = '' where lower(email) = $1 returning 1),
  t as (update tickets set holder_first_name = null, holder_last_name = null, holder_email = null where lower(holder_email) = $1 returning 1),
  o as (update orders set purchaser_first_name = null, purchaser_last_name = null, purchaser_email = null, purchaser_phone = null
    where lower(purchaser_email) = $1 returning 1)
  select (select count(*) from r)::int as registrations, (select count(*) from t)::int as tickets, (select count(*) from o)::int as orders`;

const line = (m: Measurement) =>
  `  ${m.name.padEnd(28)} ${fmt(m.perSecond).padStart(7)}/s  median ${fmt(m.median, 2).padStart(7)} ms  p99 ${fmt(m.p99, 2).padStart(7)} ms`;

async function measure(kind: 'postgres' | 'pglite') {
  const database = await createTestDatabase(kind);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DELIVERY_WORKERS: 'false', ADMIN_EMAIL, ADMIN_PASSWORD });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const started = performance.now();
    for (const statement of seed) await database.executeSql(statement);
    const seeded = (performance.now() - started) / 1000;
    const login = await app.inject({
      method: 'POST',
      url: '/app/login/',
      payload: { teamMemberUsername: ADMIN_EMAIL, teamMemberPassword: ADMIN_PASSWORD },
    });
    if (login.statusCode !== 201) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
    const headers = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };

    const exported = await measureSequential(
      'export (50 tickets)',
      seconds,
      () => app.inject({ method: 'POST', url: '/api/admin/privacy/export', headers, payload: { email: PERSON } }),
      (res) => {
        const doc = res.json<PrivacyExport>();
        if (res.statusCode !== 200 || doc.tickets.length !== 50 || doc.consents.length !== 100 || doc.loyalty.length !== 1)
          throw new Error(`export answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      },
    );
    const bare = await measureSequential(
      'bare tickets statement',
      seconds,
      () => database.executeSql(bareTickets, [PERSON]),
      ({ rows }) => {
        if (rows.length !== 50) throw new Error(`the bare statement found ${rows.length} tickets`);
      },
    );
    console.log(`\n${kind}: ${fmt(guests)} other guests seeded in ${fmt(seeded, 1)} s; load average ${fmt(loadavg()[0] ?? 0, 2)}`);
    console.log(line(exported));
    console.log(line(bare));
    console.log(`  ratio export / bare: ${(exported.perSecond / bare.perSecond).toFixed(2)} (p99 goal: 200 ms)`);

    const erased = await measureCalls(
      'erase (50 tickets)',
      (i) => i < erasures,
      (i) => app.inject({ method: 'POST', url: '/api/admin/privacy/erase', headers, payload: { email: erasable(i + 1) } }),
      (res) => {
        const answer = res.json<PrivacyErasure>();
        if (res.statusCode !== 200 || answer.orderIds.length !== 10 || answer.erased['orders and tickets'] !== 60)
          throw new Error(`erase answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      },
    );
    const bareErased = await measureCalls(
      'bare blanking statement',
      (i) => i < erasures,
      (i) => database.executeSql(bareErase, [erasable(erasures + i + 1)]),
      ({ rows }) => {
        if (JSON.stringify(rows[0]) !== '{"registrations":50,"tickets":50,"orders":10}')
          throw new Error(`the bare statement blanked ${JSON.stringify(rows[0])}`);
      },
    );
    console.log(line(erased));
    console.log(line(bareErased));
    console.log(`  ratio erase / bare: ${(erased.perSecond / bareErased.perSecond).toFixed(2)} (p99 goal: 1,000 ms)`);
  } finally {
    await app.close();
    await database.close();
  }
}

console.log(
  benchHeader('bench:privacy', `the staff export of a person with 50 tickets among ${fmt(guests)} guests, beside a bare statement`),
);
for (const kind of await databaseKinds(adminUrl)) await measure(kind);

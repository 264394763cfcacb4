// Same answer, same time: the calls that must not tell whether someone is known (the privacy
// request, the statement link, the loyalty code) answer before any work that differs. With
// no workers running, each answer is back while its look-up and mail wait in a job whose data
// holds no email in clear; the work happens only when a worker runs the job. The times
// themselves are measured by bench/same-time.ts (the median of 200 calls each way).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { insertAccount } from '../loyalty/loyalty.repo.ts';
import { STATEMENT_LINK_QUEUE } from './loyalty/loyalty-statement.service.ts';
import { PRIVACY_LINK_QUEUE } from './privacy/privacy-request.service.ts';

let t: TestApp;
let ip = 0;
const MEMBER = 'same.time.member@example.com';
const HELD = 'same.time.held@example.com';
const STRANGER = 'same.time.stranger@example.com';

beforeAll(async () => {
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
  await insertAccount(t.database.db, { email: MEMBER, firstName: 'Mo', lastName: 'Time', createdBy: 'guest', createdAt: new Date() });
  const guest = { firstName: 'Hal', lastName: 'Held', email: HELD };
  await putOrder(t.app, '83000001', anOrder([{ barcode: '8300000100000001', holder: guest }], { purchaser: guest }));
});
afterAll(() => t.close());

const post = (url: string, email: string) => t.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: `10.31.0.${++ip}` });
const mailsTo = (email: string) => t.database.db.select().from(outbox).where(eq(outbox.to, email));
const waiting = async (queue: string) =>
  (await t.database.executeSql(`select data::text as data from pgboss.job where name = $1 and state = 'created'`, [queue])).rows.map(
    (row) => String(row.data),
  );

describe.each([
  { url: '/api/privacy/request', queue: PRIVACY_LINK_QUEUE, known: HELD },
  { url: '/api/loyalty/statement-link', queue: STATEMENT_LINK_QUEUE, known: MEMBER },
])('$url', ({ url, queue, known }) => {
  it('answers before looking: one job each, known or not, no mail yet, and no email in clear in the job table', async () => {
    const before = (await waiting(queue)).length;
    const knownAnswer = await post(url, known);
    const strangerAnswer = await post(url, STRANGER);
    expect(knownAnswer.statusCode).toBe(202);
    expect(strangerAnswer.statusCode).toBe(202);
    expect(Object.keys(knownAnswer.json())).toEqual(Object.keys(strangerAnswer.json()));
    const jobs = await waiting(queue);
    expect(jobs).toHaveLength(before + 2);
    expect(await mailsTo(known)).toEqual([]);
    expect(jobs.join('\n')).not.toContain(known);
    expect(jobs.join('\n')).not.toContain(STRANGER);
  });
});

it('mails the loyalty code in the request, the same work and the same mail for a member and a stranger (no account is looked up)', async () => {
  const member = await post('/api/loyalty/verify', MEMBER);
  const stranger = await post('/api/loyalty/verify', STRANGER);
  expect([member.statusCode, stranger.statusCode]).toEqual([202, 202]);
  expect(await mailsTo(MEMBER)).toHaveLength(1);
  expect(await mailsTo(STRANGER)).toHaveLength(1);
});

// LISTEN/NOTIFY on both databases (listen.ts): a NOTIFY arrives once its transaction commits,
// never from one rolled back, and not after the listener is closed (another listener of the
// channel still hears); on PostgreSQL a listener
// whose connection the server ended connects and LISTENs again, and says so.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-support/test-database.ts';
import type { Listener } from './listen.ts';

const CHANNEL = 'boardwalk_listen_test';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** A listener on CHANNEL that records what it is told. */
async function listening() {
  const told = { payloads: [] as string[], reconnects: 0 };
  const listener = await database.listen(CHANNEL, {
    onNotification: (payload) => void told.payloads.push(payload),
    onReconnect: () => void told.reconnects++,
  });
  return { told, listener };
}

const notify = (payload: string) => database.db.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
/** Long enough for a NOTIFY that was sent to arrive (PGlite's at once, PostgreSQL's over the loopback). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('listen', () => {
  let listener: Listener | undefined;
  afterAll(() => listener?.close());

  it('hands over a NOTIFY when its transaction commits, not before, and never one rolled back', async () => {
    const { told, listener: opened } = await listening();
    listener = opened;
    expect(told.reconnects).toBe(1);

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${CHANNEL}, 'committed')`);
      await settle();
      expect(told.payloads).toEqual([]);
    });
    await expect.poll(() => told.payloads).toEqual(['committed']);

    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify(${CHANNEL}, 'rolled back')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await database.db.execute(sql`select pg_notify('another_channel', 'elsewhere')`);
    await notify('after the rollback');
    await expect.poll(() => told.payloads).toEqual(['committed', 'after the rollback']);
    await settle();
    expect(told.payloads).toEqual(['committed', 'after the rollback']);
  });

  it('hears nothing once closed, while another listener of the channel still hears (two apps on one database)', async () => {
    const closing = await listening();
    const staying = await listening();
    await closing.listener.close();
    await notify('after close');
    await expect.poll(() => staying.told.payloads).toEqual(['after close']);
    await settle();
    expect(closing.told.payloads).toEqual([]);
    await staying.listener.close();
  });
});

describe.skipIf(testDbKind() !== 'postgres')('listen on PostgreSQL', () => {
  it('connects and LISTENs again after the server ends its connection, and says so', async () => {
    const { told, listener } = await listening();
    try {
      const listeners = async () =>
        (
          (await database.db.execute(
            sql`select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
          )) as unknown as { rows: { pid: number }[] }
        ).rows;
      const [first] = await listeners();
      expect(first).toBeDefined();
      await database.db.execute(sql`select pg_terminate_backend(${first!.pid})`);
      await expect.poll(() => told.reconnects, { timeout: 10_000 }).toBe(2);
      const [second] = await listeners();
      expect(second!.pid).not.toBe(first!.pid);
      await notify('after reconnect');
      await expect.poll(() => told.payloads).toEqual(['after reconnect']);
    } finally {
      await listener.close();
    }
  });
});

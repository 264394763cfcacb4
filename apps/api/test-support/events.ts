// Test support: the event feed read as the operator's systems read it (GET
// /api/integrations/events with the integration key), every page from the start.
import { count } from 'drizzle-orm';
import { expect } from 'vitest';
import type { EventFeedPage, EventType, IntegrationEvent } from '@boardwalk/contract/events';
import { integrationEvents } from '@boardwalk/db/schema';
import type { App } from '../src/app.ts';
import { integrationAuth } from './test-app.ts';

/** Every event the feed lists now, read in pages of `limit`, with the cursor to read on from. */
export async function readEventPages(app: App, limit = 100, after = ''): Promise<{ events: IntegrationEvent[]; next: string }> {
  const events: IntegrationEvent[] = [];
  let next = after;
  for (;;) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/integrations/events?limit=${limit}${next ? `&after=${next}` : ''}`,
      headers: integrationAuth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<EventFeedPage>();
    events.push(...page.events);
    if (page.events.length === 0) return { events, next: page.next };
    next = page.next;
  }
}

/**
 * Every event written so far, read through the feed once it lists them all. The feed holds an
 * event back while any older writing transaction of the PostgreSQL server runs, another test
 * file's database included (integrations/events/events.repo.ts): waited for, up to 30 s.
 */
export async function readEventFeed(app: App, limit = 100): Promise<{ events: IntegrationEvent[]; next: string }> {
  const [written] = await app.database.db.select({ n: count() }).from(integrationEvents);
  const until = Date.now() + 30_000;
  for (;;) {
    const read = await readEventPages(app, limit);
    if (read.events.length >= written!.n || Date.now() > until) return read;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The data of the events of one type, oldest first (readEventFeed). */
export async function eventsOfType(app: App, type: EventType): Promise<Record<string, unknown>[]> {
  return (await readEventFeed(app)).events.filter((e) => e.type === type).map((e) => e.data);
}

// The event catalogue in docs/integration-api.md shows one example per type: exactly the
// contract's EVENT_EXAMPLES (which the webhook tests send), each valid for its type.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_EXAMPLES, EVENT_TYPES, eventData, type EventType } from '@boardwalk/contract/events';

const docs = readFileSync(new URL('../../../../../docs/integration-api.md', import.meta.url), 'utf8');

describe('the event catalogue in the docs', () => {
  it('shows one valid example per event type, the contract’s', () => {
    const block = docs.split('<!-- event-examples:')[1]!.split('```json\n')[1]!.split('```')[0]!;
    const shown = block
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: EventType; data: unknown });
    expect(shown.map((e) => e.type)).toEqual(EVENT_TYPES);
    for (const { type, data } of shown) {
      expect(data, type).toEqual(EVENT_EXAMPLES[type]);
      expect(() => eventData[type].parse(data), type).not.toThrow();
    }
    for (const type of EVENT_TYPES) expect(docs, type).toContain(`| \`${type}\` |`);
  });
});

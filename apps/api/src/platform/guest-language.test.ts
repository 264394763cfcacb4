import { describe, expect, it } from 'vitest';
import { guestLanguage } from './guest-language.ts';

const withHeader = (acceptLanguage?: string) => ({ headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } });

describe('guestLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['es', 'es'],
    ['es-MX,es;q=0.9,en;q=0.8', 'es'],
    ['en-US,en;q=0.9,es;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,es;q=0.5', 'es'],
    ['fr-FR', 'en'],
    ['de;q=1,es;q=0', 'en'],
    ['*', 'en'],
    ['x'.repeat(500), 'en'],
  ])('Accept-Language %j is %s', (header, language) => {
    expect(guestLanguage(withHeader(header))).toBe(language);
  });
});

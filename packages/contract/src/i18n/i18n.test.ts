// The catalogues: every language has every English key, each message with the same parameters
// and tags in valid ICU MessageFormat (a number may be a plural in one language and a number in
// another); and tsc checks the keys and parameters of each call.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages.ts';
import { MAIL_TEXTS } from './mails.ts';
import { allPageTexts } from './pages.ts';
import { PASS_TEXTS } from './passes.ts';

const CATALOGUES = {
  mails: MAIL_TEXTS,
  passes: PASS_TEXTS,
  pages: Object.fromEntries(await Promise.all(LANGUAGES.map(async (language) => [language, await allPageTexts(language)]))),
};

/** Every message of a catalogue by its dotted key. */
function flatten(catalogue: object, prefix = ''): Map<string, string> {
  const messages = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') messages.set(prefix + key, value);
    else for (const [k, v] of flatten(value as object, `${prefix}${key}.`)) messages.set(k, v);
  }
  return messages;
}

/** What a caller passes for each kind of element: any value, a number, a date, a choice, a tag's function. */
const KINDS: Partial<Record<TYPE, string>> = {
  [TYPE.argument]: 'value',
  [TYPE.number]: 'number',
  [TYPE.plural]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'date',
  [TYPE.select]: 'choice',
  [TYPE.tag]: 'tag',
};

/** A message's parameters and tags, each with the kind of value it takes, and Apple's %@ places, sorted. */
function signature(message: string): string[] {
  const found = new Set<string>(message.includes('%@') ? [`%@:${message.split('%@').length - 1}`] : []);
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      found.add(`${element.value}:${KINDS[element.type]}`);
      if ('options' in element) for (const option of Object.values(element.options)) visit(option.value);
      if (element.type === TYPE.tag) visit(element.children);
    }
  };
  visit(parse(message));
  return [...found].sort();
}

describe.each(Object.entries(CATALOGUES))('the %s catalogue', (_, catalogue) => {
  const english = flatten(catalogue.en);
  it.each(LANGUAGES)('in %s has every English key and no other, each with the same parameters and tags', (language) => {
    const messages = flatten(catalogue[language]);
    expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, message] of messages) expect(signature(message), key).toEqual(signature(english.get(key)!));
  });
});

describe('signature', () => {
  it('tells a message whose parameter or tag differs, and takes a plural for a number', () => {
    expect(signature('Email <link>{email}</link>')).toEqual(['email:value', 'link:tag']);
    expect(signature('{points, number} points on {date, date, long}')).toEqual(['date:date', 'points:number']);
    expect(signature('{points, plural, one {# punto} other {# puntos de {name}}}')).toEqual(['name:value', 'points:number']);
    expect(signature('Su saldo ahora es %@')).toEqual(['%@:1']);
    expect(signature('Su saldo ahora es')).toEqual([]);
  });
});

describe('typed keys and parameters', () => {
  it('fills a message with its parameters, and tsc refuses an unknown key or a missing parameter', () => {
    const t = createTranslator({ locale: 'en', messages: MAIL_TEXTS.en, namespace: 'code' });
    expect(t('subject', { brand: 'Pier Park' })).toBe('Your Pier Park Brownie Points code');
    const untyped = () => {
      // @ts-expect-error: no such key
      t('noSuchKey');
      // @ts-expect-error: the brand parameter is missing
      t('subject', {});
    };
    expect(untyped).toBeTypeOf('function');
  });
});

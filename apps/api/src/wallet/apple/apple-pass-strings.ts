// What makes an Apple pass speak the phone's language (docs/i18n.md): pass.json carries each
// text the guest reads in English, and every pass carries `<language>.lproj/pass.strings` for
// each of Boardwalk's languages, with the English text as the key. Wallet shows the .lproj of
// the phone's language (both are there, so the guest's stored language plays no part) and the
// English text where a key has no entry. Data (names, product names) stays out: shown as
// typed. The texts staff write in each language (instructions, lock-screen texts) go in as the
// English one's translations. Dates and amounts are formatted by the phone
// (the fields' dateStyle, currencyCode); a value the phone cannot compose (25 Credits, park
// hours, a void pass's product) is a text of the pass's own, written here in each language.
import { LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';
import { fixedText, inEveryLanguage, type FixedTextKey, type PassTranslator } from '../../guest/ticket/pass-texts.ts';

/** A strings file's text: quotes and backslashes escaped, line breaks as \n (Apple's .strings format). */
const quoted = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;

/**
 * A pass.strings file: `"key" = "value";` lines, UTF-16 little-endian with its byte order
 * mark (the encoding Apple's resource guide recommends for strings files).
 */
export function stringsFile(entries: Iterable<[string, string]>): Buffer {
  let text = '';
  for (const [key, value] of entries) text += `${quoted(key)} = ${quoted(value)};\n`;
  return Buffer.from(`\ufeff${text}`, 'utf16le');
}

export interface PassStrings {
  /** The text `write` makes, in English (pass.json's), remembered in every language. */
  text(write: (t: PassTranslator) => string): string;
  /** A text without parameters by its key (fixedText), likewise. */
  fixed(key: FixedTextKey): string;
  /** A text staff wrote in every language (textsIn), likewise. */
  staff(texts: Record<Language, string>): string;
  /** `en.lproj/pass.strings`, `es.lproj/pass.strings`...: the same keys in every file. */
  files(): Record<string, Buffer>;
}

/** The localizable texts of one pass (dates in `timeZone`, the park's). */
export function passStrings(timeZone: string): PassStrings {
  const texts = new Map<string, Record<Language, string>>();
  const remember = (all: Record<Language, string>) => {
    if (!texts.has(all.en)) texts.set(all.en, all);
    return all.en;
  };
  return {
    text: (write) => remember(inEveryLanguage(timeZone, write)),
    fixed: (key) => remember(fixedText(key)),
    staff: remember,
    files() {
      return Object.fromEntries(
        LANGUAGES.map((language) => [
          `${language}.lproj/pass.strings`,
          stringsFile([...texts].map(([key, all]) => [key, all[language]] as [string, string])),
        ]),
      );
    },
  };
}

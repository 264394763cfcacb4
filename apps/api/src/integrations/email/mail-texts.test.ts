// The mails' words: English as the mails said it before the catalogue, word for word; every
// language fills every mail with no parameter left open and no formatting error.
import { describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '@boardwalk/contract/i18n/languages';
import { reminderMail } from '../../loyalty/loyalty-expiry.service.ts';
import { mailTexts } from './mail-texts.ts';

const config = {
  brandName: 'Pier Park',
  supportEmail: 'help@pier.test',
  parkTimezone: 'America/Los_Angeles',
  publicUrl: 'https://pier.test',
};
const lot = (remaining: number, iso: string) => ({ remaining, expiresAt: new Date(iso) });

describe('the expiry reminder in English', () => {
  it('names one lot in a sentence, in the park’s time zone', () => {
    const mail = reminderMail(config, { email: 'ava@example.com', firstName: 'Ava' }, [lot(1500, '2026-12-02T07:30:00Z')]);
    expect(mail.subject).toBe('Your Brownie points expire on December 1, 2026');
    expect(mail.text).toBe(
      [
        'Hi Ava,',
        '',
        '1500 of your Brownie points expire on December 1, 2026.',
        '',
        'Redeem them for a reward at any of our tills before then: https://pier.test/loyalty/?lang=en',
        'Questions? Email help@pier.test.',
        '',
        'Pier Park',
      ].join('\n'),
    );
  });

  it('lists several lots, the soonest first', () => {
    const mail = reminderMail(config, { email: 'ava@example.com', firstName: 'Ava' }, [
      lot(40, '2027-01-10T20:00:00Z'),
      lot(60, '2026-12-20T20:00:00Z'),
    ]);
    expect(mail.text.split('\n').slice(2, 5)).toEqual([
      '100 of your Brownie points expire soon:',
      '- 60 on December 20, 2026',
      '- 40 on January 10, 2027',
    ]);
  });
});

describe.each(LANGUAGES)('every mail in %s', (language) => {
  it('fills with its parameters: none left open, no formatting error', () => {
    // use-intl reports a missing parameter or a formatting error on the console, and answers the key.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = mailTexts(language, config.parkTimezone);
    const filled = [
      t('personalLinkClosing', { hours: 24, supportEmail: 'help@pier.test', brand: 'Pier Park' }),
      t('share.subject', { who: 'Ava Reyes', brand: 'Pier Park' }),
      t('share.text', {
        greeting: t('share.greetingNamed', { firstName: 'Zoë' }),
        who: t('share.someone'),
        brand: 'Pier Park',
        product: 'Day Ticket',
        link: 'https://pier.test/x',
      }),
      t('statement.text', { firstName: 'Ava', link: 'https://pier.test/s', closing: '' }),
      t('statement.proveFirst', { loyaltyUrl: 'https://pier.test/loyalty/', supportEmail: 'help@pier.test', brand: 'Pier Park' }),
      t('code.text', { brand: 'Pier Park', code: '123456', minutes: 15, supportEmail: 'help@pier.test' }),
      t('privacy.text', { brand: 'Pier Park', email: 'ava@example.com', link: 'https://pier.test/p', closing: '' }),
      t('expiry.one', { points: 1, date: new Date('2026-12-02T07:30:00Z') }),
      t('expiry.one', { points: 500, date: new Date('2026-12-02T07:30:00Z') }),
      t('passLink.text', {
        greeting: t('passLink.greeting'),
        brand: 'Pier Park',
        memberNumber: '1000123',
        link: 'https://pier.test/l',
        hours: 24,
        supportEmail: 'help@pier.test',
      }),
    ];
    expect(reported).not.toHaveBeenCalled();
    reported.mockRestore();
    for (const text of filled) expect(text).not.toMatch(/[{}]|^(personalLinkClosing|share|statement|code|privacy|expiry|passLink)\b/);
  });
});

describe('the Spanish mails', () => {
  it('say a single point in the singular, write numbers as Latin America does and give the date in Spanish', () => {
    const t = mailTexts('es', config.parkTimezone);
    expect(t('expiry.one', { points: 1, date: new Date('2026-12-02T07:30:00Z') })).toBe(
      'Tiene 1 punto Brownie que vence el 1 de diciembre de 2026.',
    );
    expect(t('expiry.one', { points: 15000, date: new Date('2026-12-02T07:30:00Z') })).toBe(
      'Tiene 15,000 puntos Brownie que vencen el 1 de diciembre de 2026.',
    );
  });
});

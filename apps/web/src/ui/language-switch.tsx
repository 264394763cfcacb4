import type { MouseEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { useTranslations } from 'use-intl';
import { LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';
import { useLanguage } from '../lib/language.tsx';

/**
 * English / Español on every guest page, as GOV.UK's language toggle does it: each language
 * named in its own words (and marked as such for screen readers), the one shown as text
 * (aria-current), the other a link to this page in it (`?lang=`, which works before the
 * scripts run and in a shared link). A click changes the page in place; the choice stays on
 * the device (lib/language.tsx). What the server worded (the park's own texts: an exclusion
 * message, a tier's name) is asked for again, in the new language.
 */
export function LanguageSwitch() {
  const t = useTranslations('common.languages');
  const { language, chooseLanguage } = useLanguage();
  const { pathname, search } = useLocation();
  const queryClient = useQueryClient();
  const linkTo = (option: Language) => {
    const query = new URLSearchParams(search);
    query.set('lang', option);
    return `${pathname}?${query}`;
  };
  const choose = (option: Language) => (event: MouseEvent) => {
    event.preventDefault();
    void chooseLanguage(option).then(() => queryClient.invalidateQueries());
  };
  return (
    <nav className="language-switch" aria-label={t('label')}>
      {LANGUAGES.map((option) =>
        option === language ? (
          <span key={option} lang={option} className="language-switch__option" aria-current="true">
            {t(option)}
          </span>
        ) : (
          <a
            key={option}
            lang={option}
            hrefLang={option}
            className="language-switch__option"
            href={linkTo(option)}
            onClick={choose(option)}
          >
            {t(option)}
          </a>
        ),
      )}
    </nav>
  );
}

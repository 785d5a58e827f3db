import type { Locale } from 'antd/es/locale';
import enGB from 'antd/es/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { settingsStore, type Language } from '../app/settings';
import { createStore, useStore } from '../app/store';
import type { Translation } from './en';
import { enCore } from './en.core';

/** Native names: a language is always offered in its own words, whatever the current one. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sk: 'Slovenčina', de: 'Deutsch' };

interface UiLocale {
  language: Language;
  /** antd component texts; en-GB because its calendar starts weeks on Monday, as the seed asks. */
  antd: Locale;
}

const uiLocaleStore = createStore<UiLocale>({ language: 'en', antd: enGB });

export function useUiLocale(): UiLocale {
  return useStore(uiLocaleStore);
}

/**
 * English ships with the first load; Slovak and German (texts, antd and dayjs locales) load when
 * chosen, which keeps them out of the sign-in page's first download.
 */
async function loadLanguage(lng: Language): Promise<UiLocale> {
  switch (lng) {
    case 'en':
      dayjs.locale('en-gb');
      return { language: 'en', antd: enGB };
    case 'sk': {
      const [{ sk }, antd] = await Promise.all([
        import('./sk'),
        import('antd/es/locale/sk_SK'),
        import('dayjs/locale/sk'),
      ]);
      addTexts('sk', sk);
      dayjs.locale('sk');
      return { language: 'sk', antd: antd.default };
    }
    case 'de': {
      const [{ de }, antd] = await Promise.all([
        import('./de'),
        import('antd/es/locale/de_DE'),
        import('dayjs/locale/de'),
      ]);
      addTexts('de', de);
      dayjs.locale('de');
      return { language: 'de', antd: antd.default };
    }
  }
}

function addTexts(lng: Language, texts: Translation): void {
  if (!i18next.hasResourceBundle(lng, 'translation')) i18next.addResourceBundle(lng, 'translation', texts);
}

async function switchTo(lng: Language): Promise<void> {
  const locale = await loadLanguage(lng).catch(() => loadLanguage('en'));
  await i18next.changeLanguage(locale.language);
  document.documentElement.lang = locale.language;
  uiLocaleStore.set(locale);
}

/**
 * Loads the English texts of the signed-in areas; the signed-in shell waits for them, so the
 * sign-in page never downloads them.
 */
export async function loadAreaTexts(): Promise<void> {
  const { enAreas } = await import('./en.areas');
  i18next.addResourceBundle('en', 'translation', enAreas, true, false);
}

export async function initI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: enCore } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await switchTo(settingsStore.get().localization);
  settingsStore.subscribe(() => {
    const lng = settingsStore.get().localization;
    if (uiLocaleStore.get().language !== lng) void switchTo(lng);
  });
}

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { settingsStore, type Language } from '../app/settings';
import { de } from './de';
import { en } from './en';
import { sk } from './sk';

export const resources = {
  en: { translation: en },
  sk: { translation: sk },
  de: { translation: de },
} as const;

/** Native names: a language is always offered in its own words, whatever the current one. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sk: 'Slovenčina', de: 'Deutsch' };

export async function initI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources,
    lng: settingsStore.get().localization,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = i18next.language;
  settingsStore.subscribe(() => {
    const lng = settingsStore.get().localization;
    if (i18next.language !== lng) {
      void i18next.changeLanguage(lng);
      document.documentElement.lang = lng;
    }
  });
}

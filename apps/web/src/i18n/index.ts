import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { settingsStore, type Language } from '../app/settings';
import { createStore, useStore } from '../app/store';
import type { Translation } from './en';
import { englishAreaTexts } from './areaTexts';
import { enCore } from './en.core';

/** Native names: a language is always offered in its own words, whatever the current one. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sk: 'Slovenčina', de: 'Deutsch' };

interface UiLocale {
  language: Language;
}

const uiLocaleStore = createStore<UiLocale>({ language: 'en' });

export function useUiLocale(): UiLocale {
  return useStore(uiLocaleStore);
}

/**
 * What else follows the language once the signed-in shell is loaded (component and date
 * locales); the sign-in page needs only the texts, so it does not load them.
 */
type LanguageCompanion = (lng: Language) => Promise<void>;
let companion: LanguageCompanion | undefined;

/** Registers the shell's locale loader and runs it for the language in use. */
export async function followLanguage(load: LanguageCompanion): Promise<void> {
  companion = load;
  await load(uiLocaleStore.get().language);
}

/**
 * English ships with the first load; Slovak and German texts load when chosen, which keeps them
 * out of the sign-in page's first download.
 */
async function loadLanguage(lng: Language): Promise<UiLocale> {
  switch (lng) {
    case 'en':
      return { language: 'en' };
    case 'sk': {
      const { sk } = await import('./sk');
      addTexts('sk', sk);
      return { language: 'sk' };
    }
    case 'de': {
      const { de } = await import('./de');
      addTexts('de', de);
      return { language: 'de' };
    }
  }
}

function addTexts(lng: Language, texts: Translation): void {
  if (!i18next.hasResourceBundle(lng, 'translation')) i18next.addResourceBundle(lng, 'translation', texts);
}

async function switchTo(lng: Language): Promise<void> {
  const locale = await loadLanguage(lng).catch(() => loadLanguage('en'));
  await companion?.(locale.language).catch(() => companion?.('en'));
  await i18next.changeLanguage(locale.language);
  document.documentElement.lang = locale.language;
  uiLocaleStore.set(locale);
}

/**
 * Loads the English texts of the signed-in areas; the signed-in shell waits for them, so the
 * sign-in page never downloads them.
 */
export async function loadAreaTexts(): Promise<void> {
  i18next.addResourceBundle('en', 'translation', await englishAreaTexts(), true, false);
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

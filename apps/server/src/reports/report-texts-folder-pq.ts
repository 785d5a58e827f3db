import type { MessageLanguage } from '@meterportal/protocol';

/** The words of a folder's power-quality report. */
export interface FolderPqWords {
  summary: string;
  analyzers: string;
  /** Devices under the folder that are not analyzers. */
  notAssessed: string;
  weeksListed: string;
  weeksAssessed: string;
  weeksPassed: string;
  weeksFailed: string;
  /** Heading of the table of analyzer-weeks failed per criterion. */
  failedByCriterion: string;
  failedWeeks: string;
  /** The row of a week's overall verdict in an analyzer's table. */
  weekVerdict: string;
  noAnalyzer: string;
  /** {names}: the devices that are not analyzers. */
  notAssessedNote: string;
}

/** Words of a folder's power-quality report per language. */
export const FOLDER_PQ_WORDS: Record<MessageLanguage, FolderPqWords> = {
  en: {
    summary: 'The folder',
    analyzers: 'Analyzers assessed',
    notAssessed: 'Devices not assessed (not analyzers)',
    weeksListed: 'Analyzer-weeks in the period',
    weeksAssessed: 'Analyzer-weeks assessed',
    weeksPassed: 'Analyzer-weeks passed',
    weeksFailed: 'Analyzer-weeks failed',
    failedByCriterion: 'Analyzer-weeks failed per criterion',
    failedWeeks: 'Weeks failed',
    weekVerdict: 'Week’s verdict',
    noAnalyzer:
      'No analyzer is under this folder: power quality (EN 50160) is assessed for analyzers (type 3) only.',
    notAssessedNote: 'Not assessed, as they are not analyzers: {names}.',
  },
  sk: {
    summary: 'Priečinok',
    analyzers: 'Posúdené analyzátory',
    notAssessed: 'Neposúdené zariadenia (nie analyzátory)',
    weeksListed: 'Týždne analyzátorov v období',
    weeksAssessed: 'Posúdené týždne analyzátorov',
    weeksPassed: 'Vyhovujúce týždne analyzátorov',
    weeksFailed: 'Nevyhovujúce týždne analyzátorov',
    failedByCriterion: 'Nevyhovujúce týždne analyzátorov podľa kritéria',
    failedWeeks: 'Nevyhovujúce týždne',
    weekVerdict: 'Výsledok týždňa',
    noAnalyzer:
      'V tomto priečinku nie je žiadny analyzátor: kvalita elektriny (EN 50160) sa posudzuje len pri analyzátoroch (typ 3).',
    notAssessedNote: 'Neposúdené, keďže nie sú analyzátory: {names}.',
  },
  de: {
    summary: 'Der Ordner',
    analyzers: 'Bewertete Analysatoren',
    notAssessed: 'Nicht bewertete Geräte (keine Analysatoren)',
    weeksListed: 'Analysator-Wochen im Zeitraum',
    weeksAssessed: 'Bewertete Analysator-Wochen',
    weeksPassed: 'Bestandene Analysator-Wochen',
    weeksFailed: 'Nicht bestandene Analysator-Wochen',
    failedByCriterion: 'Nicht bestandene Analysator-Wochen je Kriterium',
    failedWeeks: 'Wochen nicht bestanden',
    weekVerdict: 'Ergebnis der Woche',
    noAnalyzer:
      'In diesem Ordner ist kein Analysator: die Spannungsqualität (EN 50160) wird nur für Analysatoren (Typ 3) bewertet.',
    notAssessedNote: 'Nicht bewertet, da keine Analysatoren: {names}.',
  },
};

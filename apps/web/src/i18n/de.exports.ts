import type { enExports } from './en.exports';
import type { Translation } from './en';

/** German texts of the full-range exports of the charts. */
export const deExports: Pick<Translation, keyof typeof enExports> = {
  exports: {
    full_range: 'Gesamter Bereich',
    csv: 'Gesamter Bereich als CSV',
    xlsx: 'Gesamter Bereich als XLSX',
    hint: 'Alle Werte des gewählten Bereichs vom Server, mit Ortszeit, UTC-Zeit und Einheiten',
    too_large: 'Dieser Export ist zu groß: Wählen Sie einen kürzeren Bereich oder einen längeren Zeitraum',
    started: 'Download gestartet',
  },
};

import type { enAnomalies } from './en.anomalies';
import type { Translation } from './en';

/** German texts of the anomaly models of household meters. */
export const deAnomalies: Pick<Translation, keyof typeof enAnomalies> = {
  anomalies: {
    menu: 'Anomaliemodelle',
    device: 'Gerät',
    no_device: 'Anomaliemodelle sind für Eigentümer eines Haushaltszählers.',
    model: 'Modell',
    no_model: 'Für diesen Zähler wurde noch kein Modell trainiert.',
    train: 'Modell trainieren',
    retrain: 'Neu trainieren',
    trained: 'Das Modell wurde trainiert.',
    weeks: 'Wochen Verlauf',
    hours_in_row: 'Stunden in Folge außerhalb des Bandes',
    trained_at: 'Trainiert',
    trained_by_schedule: 'vom wöchentlichen Zeitplan',
    trained_by_owner: 'vom Eigentümer',
    trained_on: 'Trainiert mit',
    trained_on_value: '{{from}} bis {{to}}',
    hours_used: 'Stunden mit Daten',
    not_enough_history:
      'Zu wenig Verlauf: mindestens 3 Wochen sind nötig, {{weeks}} ganze Wochen gefunden ({{hours}} Stunden).',
    not_enough_range: 'Gefundener Verlauf: {{from}} bis {{to}}.',
    anomalies: 'Letzte Anomalien',
    no_anomalies: 'Keine Anomalie gefunden.',
    start: 'Von',
    end: 'Bis',
    ongoing: 'dauert an',
    hours: 'Stunden',
    direction: 'Verbrauch',
    direction_HIGH: 'über dem Band',
    direction_LOW: 'unter dem Band',
    expected: 'Erwartet',
    seen: 'Gemessen',
    band_legend: 'Erwartetes Band',
    bell_started: 'Ungewöhnlicher Verbrauch: {{seen}} kWh gemessen, {{low}} bis {{high}} kWh erwartet',
    bell_ended: 'Verbrauch wieder im erwarteten Band',
  },
};

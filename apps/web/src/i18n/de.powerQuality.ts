import type { enPowerQuality } from './en.powerQuality';
import type { Translation } from './en';

/** German texts of the EN 50160 power-quality page of the analyzers. */
export const dePowerQuality: Pick<Translation, keyof typeof enPowerQuality> = {
  power_quality: {
    title: 'Spannungsqualität (EN 50160)',
    week: 'Woche',
    previous_week: 'Vorige Woche',
    next_week: 'Nächste Woche',
    week_option: '{{from}} – {{to}}',
    week_verdict: 'Ergebnis der Woche',
    criterion: 'Merkmal',
    result: 'Ergebnis',
    required: 'Gefordert',
    achieved: 'Erreicht',
    worst: 'Schlechteste Intervalle',
    no_worst: 'Keine',
    within_of: '{{within}} von {{assessed}} innerhalb',
    span_year: 'Jahr bis heute: {{from}} – {{to}}',
    week_share: 'Diese Woche: {{pct}} % ({{within}} von {{assessed}})',
    verdict_PASS: 'Erfüllt',
    verdict_FAIL: 'Nicht erfüllt',
    verdict_NO_DATA: 'Keine Daten',
    verdict_NOT_MEASURED: 'Von diesem Gerät nicht gemessen',
    criterion_VOLTAGE_95: 'Versorgungsspannung, 10-Minuten-Mittelwerte',
    criterion_VOLTAGE_ALWAYS: 'Versorgungsspannung, jederzeit',
    criterion_FREQUENCY_995: 'Frequenz, Minutenmittelwerte',
    criterion_FREQUENCY_ALWAYS: 'Frequenz, jederzeit',
    criterion_THD_95: 'THD der Spannung, 10-Minuten-Werte',
    criterion_UNBALANCE_95: 'Spannungsunsymmetrie, 10-Minuten-Werte',
    criterion_HARMONICS: 'Einzelne Oberschwingungsspannungen',
    criterion_FLICKER: 'Langzeit-Flickerstärke (Plt)',
    criterion_DIPS: 'Spannungseinbrüche und Unterbrechungen',
    limit_range: '{{low}} bis {{high}} {{unit}}',
    limit_max: 'höchstens {{high}} {{unit}}',
    harmonics_title: 'Einzelne Oberschwingungsspannungen, EN 50160:2010 Tabelle 1',
    harmonic_order: 'Ordnung',
    harmonic_limit: 'Grenzwert',
    harmonic_worst_phase: 'Schlechteste Phase eingehalten',
    harmonic_worst_interval: 'Höchstes Intervall',
    harmonics_coverage:
      'Spektren abgefragt für {{with}} von {{intervals}} 10-Minuten-Intervallen ({{pct}} %). Eine Ordnung ist erfüllt, wenn ihre 10-Minuten-Werte auf jeder Phase in mindestens {{required}} % davon den Grenzwert einhalten.',
    harmonics_no_data:
      'Für diese Woche sind keine Oberschwingungsspektren gespeichert, daher werden die Ordnungen nicht bewertet.',
    harmonics_by_order: 'Nach Ordnung in der Tabelle unten',
    reason_FLICKER: 'Der Analysator meldet keinen Flicker.',
    reason_DIPS: 'Der Analysator meldet keine Einbruchsereignisse (Halbperioden-Effektivwerte).',
    coverage: 'Datenabdeckung',
    coverage_text:
      '{{pct}} % der Minuten der Woche gespeichert; {{assessed}} von {{intervals}} 10-Minuten-Intervallen bewertet',
    nominal: 'Nennspannung {{voltage}} V, Frequenz {{frequency}} Hz; Woche ab Montag 00:00 ({{zone}})',
    method:
      '10-Minuten-Werte sind der Effektivwert der gespeicherten Minutenmittelwerte jeder Phase, nach Art von IEC 61000-4-30 Klasse S. Die Frequenz wird über das Jahr bis heute (1. Januar bis Ende der Woche) aus Minutenmittelwerten beurteilt, da der Analysator keine 10-Sekunden-Mittelwerte sendet; ihre schlechtesten Minuten sind die der Woche. Die Unsymmetrie ist das Gegensystemverhältnis aus den drei Außenleiterspannungen (IEC 61000-4-30). Ein Intervall mit weniger als 5 gespeicherten Minuten fehlt und zählt in den Anteilen nicht mit.',
    no_device: 'Wählen Sie einen Präzisionsanalysator',
  },
};

import type { enJsonMeter } from './en.jsonMeter';
import type { Translation } from './en';

/** German texts of the mapping of generic JSON meters. */
export const deJsonMeter: Pick<Translation, keyof typeof enJsonMeter> = {
  jsonMeter: {
    mapping: 'Zuordnung der JSON-Werte',
    mapping_hint:
      'Jede Zeile nimmt die Zahl an einem JSON-Pfad (z. B. data.voltage[0] oder $.L1.U), multipliziert sie mit dem Faktor und speichert sie als Größe. Fehlt ein Pfad in einer Nachricht, bleibt seine Größe leer.',
    quantity: 'Größe',
    phase: 'Phase',
    path: 'JSON-Pfad',
    scale: 'Faktor',
    add_row: 'Zeile hinzufügen',
    remove_row: 'Zeile entfernen',
    preset_sdm630: 'Vorlage Eastron SDM630',
    preset_applied:
      'Die SDM630-Vorlage ist eingetragen; passen Sie die Pfade an, wenn Ihr Gateway sie anders benennt.',
    time_path: 'Pfad der Zeit (optional)',
    time_path_hint: 'Leer: Ankunftszeit der Nachricht',
    time_format: 'Zeitformat',
    rows_count: '{{count}} von {{max}} Zeilen',
    invalid: 'Zuordnung prüfen: {{problem}}',
    problem_energy: 'das Register der bezogenen Energie (E_I) zuordnen',
    problem_path: 'ein Pfad ist kein JSON-Pfad',
    problem_scale: 'ein Faktor ist 0 oder keine Zahl',
    problem_phase: 'eine Größe ist einer Phase zugeordnet, die sie nicht hat',
    problem_twice: 'eine Größe mit Phase ist zweimal zugeordnet',
    problem_other: 'eine Zeile ist unvollständig',
    edit: 'Zuordnung bearbeiten',
    edit_title: 'Zuordnung von {{title}}',
    save: 'Speichern',
    cancel: 'Abbrechen',
    saved: 'Zuordnung gespeichert',
    quantities: {
      U: 'Spannung U (V)',
      I: 'Strom I (A)',
      P: 'Wirkleistung P (W)',
      Q: 'Blindleistung Q (var)',
      S: 'Scheinleistung S (VA)',
      PF: 'Leistungsfaktor PF',
      F: 'Frequenz F (Hz)',
      E_I: 'Bezogene Energie E_I (Wh)',
      E_E: 'Gelieferte Energie E_E (Wh)',
    },
    phases: { L1: 'L1', L2: 'L2', L3: 'L3', total: 'Gesamt' },
    formats: {
      unix_s: 'Unix-Zeit, Sekunden',
      unix_ms: 'Unix-Zeit, Millisekunden',
      iso: 'ISO 8601 mit Zeitzone',
    },
  },
};

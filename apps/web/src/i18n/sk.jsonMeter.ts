import type { enJsonMeter } from './en.jsonMeter';
import type { Translation } from './en';

/** Slovak texts of the mapping of generic JSON meters. */
export const skJsonMeter: Pick<Translation, keyof typeof enJsonMeter> = {
  jsonMeter: {
    mapping: 'Priradenie hodnôt JSON',
    mapping_hint:
      'Každý riadok vezme číslo na ceste JSON (napr. data.voltage[0] alebo $.L1.U), vynásobí ho mierkou a uloží ako veličinu. Cesta, ktorá v správe chýba, nechá veličinu prázdnu.',
    quantity: 'Veličina',
    phase: 'Fáza',
    path: 'Cesta JSON',
    scale: 'Mierka',
    add_row: 'Pridať riadok',
    remove_row: 'Odstrániť riadok',
    preset_sdm630: 'Predvoľba Eastron SDM630',
    preset_applied: 'Predvoľba SDM630 je vyplnená; upravte cesty, ak ich vaša brána pomenúva inak.',
    time_path: 'Cesta k času (voliteľné)',
    time_path_hint: 'Prázdne: čas príchodu správy',
    time_format: 'Formát času',
    rows_count: '{{count}} z {{max}} riadkov',
    invalid: 'Skontrolujte priradenie: {{problem}}',
    problem_energy: 'priraďte register odobratej energie (E_I)',
    problem_path: 'niektorá cesta nie je cestou JSON',
    problem_scale: 'niektorá mierka je 0 alebo nie je číslo',
    problem_phase: 'veličina je priradená k fáze, ktorú nemá',
    problem_twice: 'veličina s fázou je priradená dvakrát',
    problem_other: 'niektorý riadok nie je úplný',
    edit: 'Upraviť priradenie',
    edit_title: 'Priradenie pre {{title}}',
    save: 'Uložiť',
    cancel: 'Zrušiť',
    saved: 'Priradenie uložené',
    quantities: {
      U: 'Napätie U (V)',
      I: 'Prúd I (A)',
      P: 'Činný výkon P (W)',
      Q: 'Jalový výkon Q (var)',
      S: 'Zdanlivý výkon S (VA)',
      PF: 'Účinník PF',
      F: 'Frekvencia F (Hz)',
      E_I: 'Odobratá energia E_I (Wh)',
      E_E: 'Dodaná energia E_E (Wh)',
    },
    phases: { L1: 'L1', L2: 'L2', L3: 'L3', total: 'Spolu' },
    formats: {
      unix_s: 'Unixový čas, sekundy',
      unix_ms: 'Unixový čas, milisekundy',
      iso: 'ISO 8601 s časovou zónou',
    },
  },
};

import type { enAnomalies } from './en.anomalies';
import type { Translation } from './en';

/** Slovak texts of the anomaly models of household meters. */
export const skAnomalies: Pick<Translation, keyof typeof enAnomalies> = {
  anomalies: {
    menu: 'Modely anomálií',
    device: 'Zariadenie',
    no_device: 'Modely anomálií sú pre vlastníkov domácich elektromerov.',
    model: 'Model',
    no_model: 'Pre tento elektromer zatiaľ nebol naučený žiadny model.',
    train: 'Naučiť model',
    retrain: 'Naučiť znova',
    trained: 'Model bol naučený.',
    weeks: 'Týždne histórie',
    hours_in_row: 'Hodín po sebe mimo pásma',
    trained_at: 'Naučený',
    trained_by_schedule: 'týždenným plánom',
    trained_by_owner: 'vlastníkom',
    trained_on: 'Naučený na',
    trained_on_value: '{{from}} až {{to}}',
    hours_used: 'Hodiny s údajmi',
    not_enough_history:
      'Nedostatok histórie: sú potrebné aspoň 3 týždne, nájdené celé týždne: {{weeks}} ({{hours}} hodín).',
    not_enough_range: 'Nájdená história: {{from}} až {{to}}.',
    anomalies: 'Posledné anomálie',
    no_anomalies: 'Žiadna anomália nebola nájdená.',
    start: 'Od',
    end: 'Do',
    ongoing: 'prebieha',
    hours: 'Hodiny',
    direction: 'Spotreba',
    direction_HIGH: 'nad pásmom',
    direction_LOW: 'pod pásmom',
    expected: 'Očakávané',
    seen: 'Namerané',
    band_legend: 'Očakávané pásmo',
    bell_started: 'Nezvyčajná spotreba: nameraných {{seen}} kWh, očakávaných {{low}} až {{high}} kWh',
    bell_ended: 'Spotreba je opäť v očakávanom pásme',
  },
};

import type { enAppliances } from './en.appliances';
import type { Translation } from './en';

/** German texts of the appliance screen (NILM) of household meters. */
export const deAppliances: Pick<Translation, keyof typeof enAppliances> = {
  appliances: {
    menu: 'Verbraucher',
    not_household:
      'Verbraucher lernt ein Haushaltszähler. Wählen Sie einen Haushaltszähler, der Ihnen gehört.',
    list_title: 'Gelernte Verbraucher',
    none: 'Der Zähler hat noch keinen Verbraucher gelernt',
    name: 'Name des Verbrauchers',
    phase: 'Phase',
    imprint: 'Abdruck (Leistungsflanken)',
    no_imprint: 'Kein Abdruck',
    runs: 'Einschaltungen',
    runtime: 'Laufzeit',
    energy: 'Energie',
    origin_taught: 'Angelernt',
    origin_learned: 'Vom Zähler gelernt',
    remove_imprint: 'Abdruck entfernen',
    confirm_remove_imprint: 'Den Abdruck von {{name}} entfernen?',
    confirm_remove: 'Den Verbraucher {{name}} entfernen?',
    removed_imprint: 'Abdruck erfolgreich entfernt',
    removed_appliance: 'Verbraucher erfolgreich entfernt',
    teach_title: 'Neuen Verbraucher anlernen',
    step_name: 'Verbraucher benennen und Anlernen starten',
    step_switch: 'Verbraucher ein- und wieder ausschalten',
    step_finish: 'Beenden: der Zähler meldet die erkannten Flanken',
    start: 'Anlernen starten',
    finish: 'Anlernen beenden',
    listening: 'Der Zähler hört zu. Schalten Sie {{name}} ein und aus, dann beenden Sie das Anlernen.',
    learned: 'Verbraucher {{name}} gelernt',
    edges_seen: 'Erkannte Flanken',
    edges_more: 'Mehr als 2 Flanken erkannt',
    edges_less: 'Weniger als 2 Flanken erkannt',
    edges_none: 'Keine Flanke erkannt',
    settings_title: 'Verbrauchererkennung (NILM)',
    process: 'NILM-Verarbeitung',
    auto_learn: 'Automatisch lernen',
  },
};

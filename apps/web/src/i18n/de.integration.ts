import type { Translation } from './en';

/** German texts of the integration tokens screen. */
export const deIntegration: Pick<Translation, 'integration'> = {
  integration: {
    title: 'Integrations-Tokens',
    intro:
      'Mit einem Token kann ein anderes Programm (Grafana, Home Assistant, Excel, ein Skript) die Daten Ihrer Geräte über die Integrations-API lesen. Tokens können nur lesen.',
    api_docs: 'API-Beschreibung',
    create: 'Token erstellen',
    name: 'Name',
    name_rule: 'Höchstens {{max}} Zeichen, ohne < und >',
    devices: 'Geräte',
    all_devices: 'Alle meine Geräte',
    devices_hint: 'Leer lassen, um alle Ihnen zugewiesenen Geräte zu erlauben',
    valid_until: 'Gültig bis (Ende des Tages)',
    expiry: 'Läuft ab',
    no_expiry: 'Kein Ablauf',
    expired: 'Abgelaufen',
    created: 'Erstellt',
    last_used: 'Zuletzt verwendet',
    never_used: 'Nie',
    revoke: 'Widerrufen',
    revoke_confirm:
      'Token „{{name}}“ widerrufen? Programme, die ihn verwenden, verlieren sofort den Zugriff.',
    revoked: 'Token widerrufen',
    no_tokens: 'Keine Tokens vorhanden',
    secret_title: 'Token „{{name}}“ erstellt',
    secret_warning: 'Kopieren Sie den Token jetzt. Er wird nur dieses eine Mal angezeigt.',
    secret: 'Token',
    copy: 'Kopieren',
    copied: 'Token kopiert',
    copy_failed: 'Der Token konnte nicht kopiert werden; markieren und kopieren Sie ihn von Hand',
    example: 'Mit curl ausprobieren:',
    done: 'Fertig',
    invalid: 'Prüfen Sie den Namen, die Geräte und das Datum',
  },
};

import type { NotificationEntry } from './notifications';

/**
 * Keys of the phrases a notification is told in. The web app and the e-mail texts each give
 * every key its words in English, Slovak and German; which phrases a notification consists of is
 * decided here, once.
 */
export type NotificationPhraseKey =
  | 'status_ONLINE'
  | 'status_OFFLINE'
  | 'status_DATABASE_UPDATE'
  | 'status_changed'
  | 'relay_OPEN'
  | 'relay_CLOSED'
  | 'relay_changed'
  | 'cause_COMMAND'
  | 'cause_OVERLOAD'
  | 'cause_MANUAL'
  | 'appliance'
  | 'appliance_ON'
  | 'appliance_OFF'
  | 'anomaly'
  | 'phase'
  | 'event';

/** One phrase: its key and the values it names (an appliance's name, a phase). */
export interface NotificationPhrase {
  key: NotificationPhraseKey;
  name?: string;
  phase?: string;
}

const STATUSES = ['ONLINE', 'OFFLINE', 'DATABASE_UPDATE'] as const;
const RELAY_CAUSES = ['COMMAND', 'OVERLOAD', 'MANUAL'] as const;

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

/**
 * What happened, as phrases. Devices and the server report codes (ONLINE, OPEN, OVERLOAD, ON);
 * only names given by people (an appliance's name) are passed on as they are.
 */
export function notificationPhrases(n: Pick<NotificationEntry, 'type' | 'data'>): NotificationPhrase[] {
  const d = n.data;
  const phrases: NotificationPhrase[] = [];
  switch (n.type) {
    case 'STATUS':
      phrases.push({ key: oneOf(STATUSES, d.event) ? `status_${d.event}` : 'status_changed' });
      break;
    case 'DISCONNECTOR':
      phrases.push({
        key: d.event === 'OPEN' || d.event === 'CLOSED' ? `relay_${d.event}` : 'relay_changed',
      });
      if (oneOf(RELAY_CAUSES, d.message)) phrases.push({ key: `cause_${d.message}` });
      break;
    case 'NILM':
      if (d.event === 'ON' || d.event === 'OFF') {
        phrases.push(
          d.name ? { key: `appliance_${d.event}`, name: d.name } : { key: `appliance_${d.event}` },
        );
      } else {
        phrases.push(d.name ? { key: 'appliance', name: d.name } : { key: 'appliance' });
      }
      break;
    case 'ANOMALY':
      phrases.push({ key: 'anomaly' });
      break;
    default:
      phrases.push({ key: 'event' });
  }
  if (d.phase) phrases.push({ key: 'phase', phase: d.phase });
  return phrases;
}

/**
 * The words of notification kinds and phrases in each language, for the web app's bell and
 * history and for e-mail messages alike; `{{name}}` and `{{phase}}` are filled in.
 */
export const NOTIFICATION_TEXTS = {
  en: {
    types: {
      STATUS: 'Status',
      ANOMALY: 'Anomaly',
      NILM: 'Appliance',
      DISCONNECTOR: 'Disconnector',
    },
    phrases: {
      status_ONLINE: 'Device is online',
      status_OFFLINE: 'Device is offline',
      status_DATABASE_UPDATE: 'Device is updating its database',
      status_changed: 'Device status changed',
      relay_OPEN: 'Relay opened',
      relay_CLOSED: 'Relay closed',
      relay_changed: 'Relay changed',
      cause_COMMAND: 'by command',
      cause_OVERLOAD: 'overload',
      cause_MANUAL: 'by hand',
      appliance: 'Appliance',
      appliance_ON: '{{name}} switched on',
      appliance_OFF: '{{name}} switched off',
      anomaly: 'Unusual consumption',
      phase: 'phase {{phase}}',
    },
  },
  sk: {
    types: { STATUS: 'Stav', ANOMALY: 'Anomália', NILM: 'Spotrebič', DISCONNECTOR: 'Odpínač' },
    phrases: {
      status_ONLINE: 'Zariadenie je online',
      status_OFFLINE: 'Zariadenie je offline',
      status_DATABASE_UPDATE: 'Zariadenie aktualizuje databázu',
      status_changed: 'Stav zariadenia sa zmenil',
      relay_OPEN: 'Relé rozopnuté',
      relay_CLOSED: 'Relé zopnuté',
      relay_changed: 'Relé sa zmenilo',
      cause_COMMAND: 'príkazom',
      cause_OVERLOAD: 'preťaženie',
      cause_MANUAL: 'ručne',
      appliance: 'Spotrebič',
      appliance_ON: '{{name}} zapnutý',
      appliance_OFF: '{{name}} vypnutý',
      anomaly: 'Nezvyčajná spotreba',
      phase: 'fáza {{phase}}',
    },
  },
  de: {
    types: {
      STATUS: 'Status',
      ANOMALY: 'Anomalie',
      NILM: 'Verbraucher',
      DISCONNECTOR: 'Trennschalter',
    },
    phrases: {
      status_ONLINE: 'Gerät ist online',
      status_OFFLINE: 'Gerät ist offline',
      status_DATABASE_UPDATE: 'Gerät aktualisiert seine Datenbank',
      status_changed: 'Gerätestatus geändert',
      relay_OPEN: 'Relais geöffnet',
      relay_CLOSED: 'Relais geschlossen',
      relay_changed: 'Relais geändert',
      cause_COMMAND: 'per Befehl',
      cause_OVERLOAD: 'Überlast',
      cause_MANUAL: 'von Hand',
      appliance: 'Verbraucher',
      appliance_ON: '{{name}} eingeschaltet',
      appliance_OFF: '{{name}} ausgeschaltet',
      anomaly: 'Ungewöhnlicher Verbrauch',
      phase: 'Phase {{phase}}',
    },
  },
} as const;

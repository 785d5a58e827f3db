import {
  LOCAL_TIME_FAMILIES,
  MAC_PATTERN,
  type DeviceConnectionSettings,
  type RegistrationFamily,
} from '@meterportal/protocol';

/** A family topic or prefix: one topic level (the server checks the same, and reserved words). */
export const TOPIC_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Longest family topic. */
export const TOPIC_MAX = 64;
/** Longest device title. */
export const TITLE_MAX = 100;

/** Whether the family's clock runs in local time, so its zone may be given. */
export const usesLocalTime = (family: RegistrationFamily): boolean => LOCAL_TIME_FAMILIES.includes(family);

/**
 * The identifier in the portal's dashed form: a MAC as printed on a device (`A8:03:2A:BE:54:DC`,
 * `a8032abe54dc`, `A8-03-…`) becomes `A8-03-2A-BE-54-DC`; anything else is kept as typed.
 */
export function normalizeIdentifier(input: string): string {
  const s = input.trim();
  const hex = s.replace(/[:.\-\s]/g, '');
  if (/^[0-9A-Fa-f]{12}$/.test(hex)) return (hex.toUpperCase().match(/../g) ?? []).join('-');
  return s.toUpperCase();
}

/** Whether the server will take the identifier as a device mac. */
export const isIdentifier = (input: string): boolean => {
  const mac = normalizeIdentifier(input);
  return mac.length >= 11 && mac.length <= 40 && MAC_PATTERN.test(mac);
};

/** One line of the settings to enter on a device: its label key, value and whether to copy it. */
export interface SettingsRow {
  key:
    | 'enable'
    | 'server'
    | 'port'
    | 'client_id'
    | 'username'
    | 'password'
    | 'prefix'
    | 'topic'
    | 'rpc_notifications'
    | 'generic_status';
  value: string;
  copy: boolean;
  /** A value written in the interface's language (on), not copied. */
  translated?: boolean;
}

/** The fields a family's own settings page asks for, in its order. */
export function settingsRows(s: DeviceConnectionSettings): SettingsRow[] {
  const who: SettingsRow[] = [
    { key: 'client_id', value: s.clientId, copy: true },
    { key: 'username', value: s.username, copy: true },
    { key: 'password', value: s.password, copy: true },
  ];
  switch (s.family) {
    case 'shelly':
      return [
        { key: 'enable', value: 'on', copy: false, translated: true },
        { key: 'server', value: `${s.host}:${s.port}`, copy: true },
        ...who,
        { key: 'prefix', value: s.topic ?? '', copy: true },
        { key: 'rpc_notifications', value: 'on', copy: false, translated: true },
        { key: 'generic_status', value: 'on', copy: false, translated: true },
      ];
    case 'tasmota':
      return [
        { key: 'server', value: s.host, copy: true },
        { key: 'port', value: String(s.port), copy: true },
        ...who,
        { key: 'topic', value: s.topic ?? '', copy: true },
      ];
    case 'p1':
    case 'json':
    case 'portal':
      return [
        { key: 'server', value: s.host, copy: true },
        { key: 'port', value: String(s.port), copy: true },
        ...who,
        { key: 'topic', value: s.publishTopic, copy: true },
      ];
  }
}

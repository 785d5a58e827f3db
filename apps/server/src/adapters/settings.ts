// The exact settings to enter on a device of an adapted family so it talks to the portal.
import { MQTT_TOPIC_ROOT, meterClientId, type DeviceConnectionSettings } from '@meterportal/protocol';
import type { FamilyDevice } from './families';

/** Where and as whom the device connects. */
export interface ConnectionSettings {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** The Tasmota console line that points a device at the portal. */
export function tasmotaBacklog(topic: string, c: ConnectionSettings): string {
  return `Backlog MqttHost ${c.host}; MqttPort ${c.port}; MqttUser ${c.username}; MqttPassword ${c.password}; MqttClient ${meterClientId(c.username)}; Topic ${topic}; FullTopic %prefix%/%topic%/; TelePeriod 10`;
}

/** Where a device publishes: its prefix, its Tasmota or P1 topic, or the portal's `meters/<mac>/`. */
export function publishTopicOf(d: FamilyDevice | null, mac: string): string {
  if (!d) return `${MQTT_TOPIC_ROOT}/${mac}/`;
  switch (d.family) {
    case 'shelly':
      return `${d.topic}/`;
    case 'tasmota':
      return `tele/${d.topic}/`;
    case 'p1':
      return `p1/${d.topic}`;
    case 'json':
      return `json/${d.topic}`;
  }
}

/** The settings to enter on a device, as the registration calls answer them (shown once). */
export function connectionSettings(
  mac: string,
  d: FamilyDevice | null,
  c: ConnectionSettings,
): DeviceConnectionSettings {
  return {
    mac,
    family: d?.family ?? 'portal',
    topic: d?.topic ?? null,
    host: c.host,
    port: c.port,
    clientId: meterClientId(c.username),
    username: c.username,
    password: c.password,
    publishTopic: publishTopicOf(d, mac),
    command: d?.family === 'tasmota' ? tasmotaBacklog(d.topic, c) : null,
  };
}

/** The broker settings a generic MQTT client asks for, one a line. */
function brokerLines(c: ConnectionSettings): string[] {
  return [
    `  Server: ${c.host}`,
    `  Port: ${c.port}`,
    `  Client ID: ${meterClientId(c.username)}`,
    `  Username: ${c.username}`,
    `  Password: ${c.password}`,
  ];
}

/** Lines to show once, beside the issued credentials. */
export function deviceSettings(d: FamilyDevice, c: ConnectionSettings): string[] {
  const clientId = meterClientId(c.username);
  switch (d.family) {
    case 'shelly':
      return [
        'Shelly web interface, Settings > MQTT:',
        '  Enable: on',
        `  Server: ${c.host}:${c.port}`,
        `  Client ID: ${clientId}`,
        `  MQTT prefix: ${d.topic}`,
        `  Username: ${c.username}`,
        `  Password: ${c.password}`,
        '  RPC status notifications over MQTT: on',
        '  Generic status update over MQTT: on',
        'then Save and reboot. The portal reads status/em:0, status/emdata:0 (or em1:N, em1data:N), online and events/rpc.',
      ];
    case 'tasmota':
      return [
        'Tasmota console (one line):',
        `  ${tasmotaBacklog(d.topic, c)}`,
        `The portal reads tele/${d.topic}/SENSOR (ENERGY), tele/${d.topic}/LWT and stat/${d.topic}/STATUS8.`,
      ];
    case 'p1':
      return [
        'P1 bridge MQTT settings:',
        ...brokerLines(c),
        `  Topic: p1/${d.topic}`,
        '  Payload: each raw telegram as read from the P1 port, or DSMR-reader JSON.',
      ];
    case 'json':
      return [
        'Gateway MQTT settings:',
        ...brokerLines(c),
        `  Topic: json/${d.topic}`,
        "  Payload: one JSON object per reading, read through the device's mapping.",
      ];
  }
}

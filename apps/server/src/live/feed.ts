import type { DeviceMessage } from '@meterportal/protocol';
import type { LiveBus } from './bus';

/** Topic of a device message on the live bus, for the kinds browsers see as data. */
const DATA_TOPIC = {
  live: 'Data',
  upgrade: 'Upgrade',
  'accutest/data': 'AccuTest/Data',
  'accutest/state': 'AccuTest/State',
} as const;

/** Puts a decoded device message on the bus, as the websocket hub expects it. */
export function publishDeviceMessage(bus: LiveBus, message: DeviceMessage): void {
  switch (message.kind) {
    case 'live':
    case 'upgrade':
    case 'accutest/data':
    case 'accutest/state':
      bus.publish(message.mac, { kind: 'data', topic: DATA_TOPIC[message.kind], payload: message.payload });
      return;
    case 'state':
      bus.publish(message.mac, {
        kind: 'state',
        state: {
          status: message.payload.status,
          fw: message.payload.fw ?? null,
          connection: message.payload.connection ?? null,
          device: message.payload.device ?? null,
        },
      });
      return;
    case 'event':
    case 'cmd/req':
    case 'cmd/res':
      // Events reach browsers as stored notifications; commands are answered by the commander.
      return;
  }
}

import type { DeviceMessage } from '@meterportal/protocol';
import type { LiveBus } from './bus';

/** Puts a decoded device message on the bus, as the websocket hub expects it. */
export function publishDeviceMessage(bus: LiveBus, message: DeviceMessage): void {
  switch (message.kind) {
    case 'live':
      bus.publish(message.mac, { kind: 'data', topic: 'Data', payload: message.payload });
      return;
    case 'upgrade':
      bus.publish(message.mac, { kind: 'data', topic: 'Upgrade', payload: message.payload });
      return;
    case 'accutest/data':
      bus.publish(message.mac, { kind: 'data', topic: 'AccuTest/Data', payload: message.payload });
      return;
    case 'accutest/state':
      bus.publish(message.mac, { kind: 'data', topic: 'AccuTest/State', payload: message.payload });
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

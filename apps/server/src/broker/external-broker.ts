// Joining an external broker (Mosquitto, EMQX) as the portal's ingest client. A fixed client id
// with clean: false keeps a persistent session, so QoS 1 messages published while the server
// restarts wait in the broker and arrive once it is back.
import mqtt from 'mqtt';
import { DEVICE_PUBLISH_KINDS, MQTT_QOS, fleetTopicFilter } from '@meterportal/protocol';
import type { Logger } from '../telemetry/burst-log';
import type { BrokerLink, MessageSink } from './broker-link';

/** What the external broker link needs. */
export interface ExternalBrokerDeps {
  /** mqtt:// or mqtts:// URL, credentials may be in it. */
  url: string;
  /** Stable client id: the broker keeps this session across restarts. */
  clientId?: string;
  logger: Logger;
  onMessage: MessageSink;
}

/** Connects to the external broker and subscribes to every device topic. */
export async function connectExternalBroker(deps: ExternalBrokerDeps): Promise<BrokerLink> {
  const { logger } = deps;
  const client = mqtt.connect(deps.url, {
    clientId: deps.clientId ?? 'meterportal-ingest',
    clean: false,
    protocolVersion: 4,
    keepalive: 30,
    reconnectPeriod: 2000,
  });
  client.on('message', (topic, payload) => deps.onMessage(topic, payload));
  client.on('error', (e) => logger.warn({ err: e.message }, 'MQTT link error'));
  client.on('reconnect', () => logger.info({}, 'MQTT link reconnecting'));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  // Subscribing again on every start is harmless; with a resumed session it is a no-op.
  await client.subscribeAsync(
    Object.fromEntries(DEVICE_PUBLISH_KINDS.map((k) => [fleetTopicFilter(k), { qos: MQTT_QOS }])),
  );
  logger.info({ url: deps.url.replace(/\/\/[^@]*@/, '//***@') }, 'joined external MQTT broker');
  return {
    async publish(topic, payload) {
      await client.publishAsync(topic, payload, { qos: MQTT_QOS });
    },
    async close() {
      await client.endAsync();
    },
  };
}

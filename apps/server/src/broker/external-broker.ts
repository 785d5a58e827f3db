// Joining an external broker (Mosquitto, EMQX) as the portal's ingest client. A fixed client id
// with clean: false keeps a persistent session, so QoS 1 messages published while the server
// restarts wait in the broker and arrive once it is back.
//
// A message is acknowledged (PUBACK) only once ingest has committed it. MQTT.js sends the PUBACK
// when its handleMessage callback is called, but reads no further packet until then, which would
// allow one message per commit; so handleMessage ends each QoS 1 message at once without its
// PUBACK, and the PUBACK is sent when ingest calls the ack. The broker keeps every unacknowledged
// message and delivers it again on the next session (the broker's in-flight limit must allow one
// commit's worth of messages: docs/telemetry.md).
import mqtt, { type IPublishPacket, type Packet } from 'mqtt';
import { DEVICE_PUBLISH_KINDS, MQTT_QOS, fleetTopicFilter } from '@meterportal/protocol';
import { FAMILY_SUBSCRIPTIONS } from '../adapters/families';
import type { Logger } from '../telemetry/burst-log';
import type { TelemetryMetrics } from '../telemetry/metrics';
import type { BrokerLink, MessageSink } from './broker-link';
import { PROBE_COUNT, PROBE_TOPIC, createInflightProbe } from './inflight-probe';

/** What the external broker link needs. */
export interface ExternalBrokerDeps {
  /** mqtt:// or mqtts:// URL, credentials may be in it. */
  url: string;
  /** Stable client id: the broker keeps this session across restarts. */
  clientId?: string;
  logger: Logger;
  onMessage: MessageSink;
  /** Probe the broker's in-flight limit at start and warn when it is small (default true). */
  probeInflight?: boolean;
  /** Link state metrics (connected, disconnects). */
  metrics?: Pick<TelemetryMetrics, 'brokerConnected' | 'brokerDisconnects'>;
}

// Ends MQTT.js's handling of a QoS 1 message without its PUBACK (it sends none on an error).
const PUBACK_LATER = new Error('acknowledged once committed');

/** Connects to the external broker and subscribes to every device topic. */
export async function connectExternalBroker(deps: ExternalBrokerDeps): Promise<BrokerLink> {
  const { logger, metrics } = deps;
  const client = mqtt.connect(deps.url, {
    clientId: deps.clientId ?? 'meterportal-ingest',
    clean: false,
    protocolVersion: 4,
    keepalive: 30,
    reconnectPeriod: 2000,
  });
  // Message ids belong to one connection: an ack of a message delivered on an earlier one is not
  // sent, the broker delivers that message again on this one.
  let connection = 0;
  const sendPacket = (packet: Packet) =>
    (client as unknown as { _sendPacket(p: Packet, cb: () => void): void })._sendPacket(
      packet,
      () => undefined,
    );
  // Device messages delivered on this connection whose PUBACK waits for a commit.
  let heldDevice = 0;
  const probe = createInflightProbe({
    heldDeviceMessages: () => heldDevice,
    sendPuback: (messageId) => {
      if (client.connected) sendPacket({ cmd: 'puback', messageId });
    },
  });
  client.handleMessage = (packet: IPublishPacket, callback: (error?: Error) => void) => {
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (packet.topic === PROBE_TOPIC) {
      if (packet.qos === 1 && packet.messageId !== undefined) probe.onDelivery(packet.messageId);
      callback(packet.qos === 1 ? PUBACK_LATER : undefined);
      return;
    }
    if (packet.qos !== 1 || packet.messageId === undefined) {
      deps.onMessage(packet.topic, payload);
      callback();
      return;
    }
    const messageId = packet.messageId;
    const on = connection;
    let acked = false;
    if (on === connection) heldDevice++;
    deps.onMessage(packet.topic, payload, undefined, () => {
      if (acked) return;
      acked = true;
      if (on !== connection) return;
      heldDevice--;
      if (client.connected) sendPacket({ cmd: 'puback', messageId });
    });
    callback(PUBACK_LATER);
  };
  let up = false;
  client.on('connect', () => {
    connection++;
    heldDevice = 0;
    up = true;
    metrics?.brokerConnected.set(1);
  });
  client.on('close', () => {
    if (!up) return;
    up = false;
    metrics?.brokerConnected.set(0);
    metrics?.brokerDisconnects.inc();
  });
  client.on('error', (e) => logger.warn({ err: e.message }, 'MQTT link error'));
  client.on('reconnect', () => logger.info({}, 'MQTT link reconnecting'));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  // Subscribing again on every start is harmless; with a resumed session it is a no-op.
  await client.subscribeAsync(
    Object.fromEntries(
      [...DEVICE_PUBLISH_KINDS.map((k) => fleetTopicFilter(k)), ...FAMILY_SUBSCRIPTIONS].map((f) => [
        f,
        { qos: MQTT_QOS },
      ]),
    ),
  );
  logger.info({ url: deps.url.replace(/\/\/[^@]*@/, '//***@') }, 'joined external MQTT broker');
  if (deps.probeInflight !== false) {
    const granted = await client.subscribeAsync(PROBE_TOPIC, { qos: MQTT_QOS });
    if (granted.some((g) => g.qos === 128)) {
      logger.info(
        { topic: PROBE_TOPIC },
        'MQTT in-flight limit not probed: the broker refused the probe topic',
      );
    } else {
      const seen = await probe.run((i) =>
        client.publishAsync(PROBE_TOPIC, String(i), { qos: MQTT_QOS }).then(() => undefined),
      );
      await client.unsubscribeAsync(PROBE_TOPIC);
      if (seen.stalled && seen.probeDelivered === 0)
        logger.info({ topic: PROBE_TOPIC }, 'MQTT in-flight limit not probed: no probe message came back');
      else if (seen.stalled)
        logger.warn(
          { inFlight: seen.inFlight, probeDelivered: seen.probeDelivered, probeSent: PROBE_COUNT },
          `the MQTT broker stops delivering after about ${seen.inFlight} unacknowledged messages; ingest acknowledges each message only once it is committed, so ingest is capped near that many messages per commit: set max_inflight_messages 0 and max_queued_messages 1000000 (Mosquitto) for the portal's client (docs/mqtt.md)`,
        );
    }
  }
  return {
    async publish(topic, payload) {
      await client.publishAsync(topic, payload, { qos: MQTT_QOS });
    },
    async close() {
      await client.endAsync();
    },
  };
}

// The embedded MQTT broker (Aedes): devices log in with their own credentials and may publish
// and subscribe only under their own `meters/{mac}/` topics.
import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { DEVICE_PUBLISH_KINDS, DEVICE_SUBSCRIBE_KINDS, MQTT_TOPIC_ROOT, parseDeviceTopic } from '@meterportal/protocol';
import type { Logger } from '../telemetry/burst-log';
import type { BrokerLink, MessageSink } from './broker-link';
import type { DeviceCredentials } from './credentials';

/** What the embedded broker needs. */
export interface EmbeddedBrokerDeps {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  host?: string;
  credentials: DeviceCredentials;
  logger: Logger;
  onMessage: MessageSink;
}

/** A running embedded broker. */
export interface EmbeddedBroker extends BrokerLink {
  /** The port it listens on. */
  readonly port: number;
  /** Devices connected now. */
  connectedClients(): number;
}

const PUBLISH_KINDS: ReadonlySet<string> = new Set(DEVICE_PUBLISH_KINDS);
const SUBSCRIBE_KINDS: ReadonlySet<string> = new Set(DEVICE_SUBSCRIBE_KINDS);

/** CONNACK refusal: 4 bad user name or password, 3 server unavailable (MQTT 3.1.1). */
function authError(message: string, returnCode: 3 | 4 = 4): AuthenticateError {
  const e = new Error(message) as AuthenticateError;
  e.returnCode = returnCode;
  return e;
}

/** Starts the embedded broker on deps.port. */
export async function startEmbeddedBroker(deps: EmbeddedBrokerDeps): Promise<EmbeddedBroker> {
  const { credentials, logger, onMessage } = deps;
  // The mac each connection logged in as; set by authenticate, read by the ACL checks.
  const macOf = new WeakMap<Client, string>();

  const aedes = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      if (!username || !password) return done(authError('credentials required'), false);
      credentials
        .verify(username, password)
        .then((found) => {
          if (!found) {
            logger.warn({ username: username.slice(0, 64), clientId: client.id }, 'device login refused');
            return done(authError('bad credentials'), false);
          }
          macOf.set(client, found.mac);
          done(null, true);
        })
        .catch((e: unknown) => {
          logger.error({ err: e }, 'credential check failed');
          done(authError('unavailable', 3), false);
        });
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // the portal's own publishes
      const t = parseDeviceTopic(packet.topic);
      const mac = macOf.get(client);
      if (t && mac === t.mac && PUBLISH_KINDS.has(t.kind)) return done(null);
      logger.warn({ mac, topic: packet.topic.slice(0, 120) }, 'publish outside own topics refused');
      done(new Error('not authorized'));
    },
    authorizeSubscribe(client, sub, done) {
      const t = parseDeviceTopic(sub.topic);
      const mac = macOf.get(client);
      if (t && mac === t.mac && SUBSCRIBE_KINDS.has(t.kind)) return done(null, sub);
      logger.warn({ mac, topic: sub.topic.slice(0, 120) }, 'subscription outside own topics refused');
      done(null, null);
    },
    published(packet, client, done) {
      // Only device messages go to ingest; the portal's own command publishes have no client.
      if (client && packet.topic.startsWith(`${MQTT_TOPIC_ROOT}/`)) {
        onMessage(packet.topic, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), macOf.get(client));
      }
      done(null);
    },
  });
  aedes.on('clientError', (client, err) => logger.debug({ clientId: client.id, err: err.message }, 'device connection error'));

  const server = net.createServer(aedes.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : deps.port;
  logger.info({ port }, 'embedded MQTT broker listening');

  return {
    port,
    connectedClients: () => aedes.connectedClients,
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      ),
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

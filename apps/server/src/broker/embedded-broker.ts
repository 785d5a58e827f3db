// The embedded MQTT broker (Aedes): devices log in with their own credentials and may publish
// and subscribe only under their own `meters/{mac}/` topics, or, for a device of an adapted
// family (Shelly, Tasmota, P1), only its own family topics (adapters/families.ts). The
// credentials are the identity: a connection's client id must be `meter-{mac}` of the device it
// logged in as, so it can never take over another meter's session, and its last will may only
// say that meter's own state (a family device's: one of its own topics).
// A device's QoS 1 publish is acknowledged (PUBACK) only once ingest has committed what it
// contributes.
import net from 'node:net';
import { Aedes, type AuthenticateError, type Client, type ConnectPacket } from 'aedes';
import {
  DEVICE_PUBLISH_KINDS,
  DEVICE_SUBSCRIBE_KINDS,
  MQTT_TOPIC_ROOT,
  deviceTopic,
  meterClientId,
  parseDeviceTopic,
} from '@meterportal/protocol';
import { familyAcl, filterWithin, topicMatches, type FamilyAcl } from '../adapters/families';
import type { FamilyDevicesRepository } from '../adapters/family-devices.repository';
import type { Logger } from '../telemetry/burst-log';
import type { Ack, BrokerLink, MessageSink } from './broker-link';
import type { DeviceCredentials } from './credentials';

/** What the embedded broker needs. */
export interface EmbeddedBrokerDeps {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  host?: string;
  credentials: DeviceCredentials;
  /** The family and topic of a device that speaks an adapted family's topics. */
  families: Pick<FamilyDevicesRepository, 'byMac'>;
  logger: Logger;
  onMessage: MessageSink;
}

/** A running embedded broker. */
export interface EmbeddedBroker extends BrokerLink {
  /** The port it listens on. */
  readonly port: number;
  /** Devices connected now. */
  connectedClients(): number;
  /** Closes the connection of a device whose credentials changed; it must log in again. */
  disconnect(mac: string): void;
}

const PUBLISH_KINDS: ReadonlySet<string> = new Set(DEVICE_PUBLISH_KINDS);
const SUBSCRIBE_KINDS: ReadonlySet<string> = new Set(DEVICE_SUBSCRIBE_KINDS);

/**
 * CONNACK refusal (MQTT 3.1.1): 2 identifier rejected, 3 server unavailable, 4 bad user name or
 * password, 5 not authorized.
 */
function authError(message: string, returnCode: 2 | 3 | 4 | 5 = 4): AuthenticateError {
  const e = new Error(message) as AuthenticateError;
  e.returnCode = returnCode;
  return e;
}

// A device's QoS 1 publishes, taken over before Aedes handles them, by payload (Aedes passes the
// same payload object on to the published hook): their PUBACK waits for ingest's commit.
type HeldAcks = WeakMap<Buffer, Ack>;

/**
 * Aedes answers a QoS 1 publish with its PUBACK as soon as it reads it, before any hook can
 * store it. So each publish is handed to Aedes as QoS 0 (which it does not acknowledge) and the
 * PUBACK is written here, on the same connection, when ingest calls the ack. A connection that
 * closed meanwhile gets none: the device sends the message again on its next connection.
 */
function holdPubacks(client: Client, held: HeldAcks): void {
  const parser = (client as unknown as { _parser: NodeJS.EventEmitter })._parser;
  const conn = client.conn;
  parser.prependListener(
    'packet',
    (packet: { cmd: string; qos?: number; messageId?: number; payload?: Buffer }) => {
      if (
        packet.cmd !== 'publish' ||
        packet.qos !== 1 ||
        packet.messageId === undefined ||
        !packet.payload?.length
      )
        return;
      const id = packet.messageId;
      packet.qos = 0;
      held.set(packet.payload, () => {
        if (client.connected && !client.closed && client.conn === conn && !conn.destroyed) {
          conn.write(Buffer.from([0x40, 0x02, id >> 8, id & 0xff]));
        }
      });
    },
  );
}

/** Starts the embedded broker on deps.port. */
export async function startEmbeddedBroker(deps: EmbeddedBrokerDeps): Promise<EmbeddedBroker> {
  const { credentials, logger, onMessage } = deps;
  // The mac each connection logged in as; set by authenticate, read by the ACL checks.
  const macOf = new WeakMap<Client, string>();
  // The topics of a connection of an adapted family (Shelly, Tasmota, P1), instead of `meters/`.
  const aclOf = new WeakMap<Client, FamilyAcl>();
  // The CONNECT packet of each connection being set up, for its will; read once by authenticate.
  const connectOf = new WeakMap<Client, ConnectPacket>();
  const held: HeldAcks = new WeakMap();
  // The open connection of each logged-in device, to close it when its credentials change.
  const byMac = new Map<string, Client>();

  const aedes = await Aedes.createBroker({
    preConnect(client, packet, done) {
      connectOf.set(client, packet);
      done(null, true);
    },
    authenticate(client, username, password, done) {
      const will = connectOf.get(client)?.will;
      connectOf.delete(client);
      if (!username || !password) return done(authError('credentials required'), false);
      credentials
        .verify(username, password)
        .then(async (found) => {
          if (!found) {
            logger.warn({ username: username.slice(0, 64), clientId: client.id }, 'device login refused');
            return done(authError('bad credentials'), false);
          }
          // Checked before the session is registered, so a refused id never displaces anyone.
          if (client.id !== meterClientId(found.mac)) {
            logger.warn(
              { mac: found.mac, clientId: client.id.slice(0, 64) },
              'device login with a client id of another identity refused',
            );
            return done(authError('client id is not the one of these credentials', 2), false);
          }
          const family = await deps.families.byMac(found.mac);
          const acl = family ? familyAcl(family) : null;
          // A family device's will (Shelly `online`, Tasmota `LWT`) lies among its own topics.
          const willAllowed = acl
            ? acl.publish.some((f) => topicMatches(f, will?.topic ?? ''))
            : will?.topic === deviceTopic(found.mac, 'state');
          if (will && !willAllowed) {
            logger.warn(
              { mac: found.mac, topic: will.topic.slice(0, 120) },
              'device last will outside its own state topic refused',
            );
            return done(authError('last will allowed only on the own state topic', 5), false);
          }
          macOf.set(client, found.mac);
          byMac.set(found.mac, client);
          if (acl) aclOf.set(client, acl);
          done(null, true);
        })
        .catch((e: unknown) => {
          logger.error({ err: e }, 'credential check failed');
          done(authError('unavailable', 3), false);
        });
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // the portal's own publishes
      const mac = macOf.get(client);
      const acl = aclOf.get(client);
      if (acl) {
        if (acl.publish.some((f) => topicMatches(f, packet.topic))) return done(null);
      } else {
        const t = parseDeviceTopic(packet.topic);
        if (t && mac === t.mac && PUBLISH_KINDS.has(t.kind)) return done(null);
      }
      logger.warn({ mac, topic: packet.topic.slice(0, 120) }, 'publish outside own topics refused');
      done(new Error('not authorized'));
    },
    authorizeSubscribe(client, sub, done) {
      const mac = macOf.get(client);
      const acl = aclOf.get(client);
      if (acl) {
        if (acl.subscribe.some((f) => filterWithin(f, sub.topic))) return done(null, sub);
      } else {
        const t = parseDeviceTopic(sub.topic);
        if (t && mac === t.mac && SUBSCRIBE_KINDS.has(t.kind)) return done(null, sub);
      }
      logger.warn({ mac, topic: sub.topic.slice(0, 120) }, 'subscription outside own topics refused');
      done(null, null);
    },
    published(packet, client, done) {
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      const ack = held.get(payload);
      held.delete(payload);
      // Only device messages go to ingest (the portal's own command publishes have no client): the
      // portal protocol's under `meters/`, and every publish of an adapted family's device.
      if (client && (aclOf.has(client) || packet.topic.startsWith(`${MQTT_TOPIC_ROOT}/`)))
        onMessage(packet.topic, payload, macOf.get(client), ack);
      else ack?.();
      done(null);
    },
  });
  aedes.on('clientDisconnect', (client) => {
    const mac = macOf.get(client);
    if (mac && byMac.get(mac) === client) byMac.delete(mac);
  });
  aedes.on('clientError', (client, err) =>
    logger.debug({ clientId: client.id, err: err.message }, 'device connection error'),
  );

  const server = net.createServer((socket) => holdPubacks(aedes.handle(socket), held));
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
    disconnect(mac) {
      byMac.get(mac)?.close();
    },
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

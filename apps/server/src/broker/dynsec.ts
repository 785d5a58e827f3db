// Device accounts in Mosquitto's dynamic security plugin, kept in step with the secrets the
// portal issues (MQTT_DYNSEC=true with MQTT_URL). Each meter gets a client named by its mac, with
// its secret and the fixed client id `meter-{mac}` (so no other account can take over its
// session, and it cannot connect under another id), and a role that allows exactly the device topics of that mac (Mosquitto 2.0's
// plugin has no %u patterns, so the role is per meter). Commands go over MQTT to
// $CONTROL/dynamic-security/v1; the account in MQTT_URL must be allowed to send them.
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import type { FamilyAcl } from '../adapters/families';
import {
  DEVICE_PUBLISH_KINDS,
  DEVICE_SUBSCRIBE_KINDS,
  deviceTopic,
  meterClientId,
} from '@meterportal/protocol';

const CONTROL = '$CONTROL/dynamic-security/v1';
const TIMEOUT_MS = 5000;

/** Accounts of meters on the broker. */
export interface BrokerAccounts {
  /**
   * Creates the meter's account with this secret, or sets the secret of the one there. A device of
   * an adapted family gets its family's topics (acl) instead of the portal's.
   */
  set(mac: string, password: string, acl?: FamilyAcl): Promise<void>;
  /** Removes the meter's account; one that is not there is no error. */
  remove(mac: string): Promise<void>;
  close(): Promise<void>;
}

/** A refusal or silence of the broker's dynamic security plugin. */
export class DynsecError extends Error {}

interface Command {
  command: string;
  [key: string]: unknown;
}

/** The role that lets one meter publish and subscribe on its own topics only. */
export function meterRole(mac: string, acl?: FamilyAcl) {
  if (acl)
    return {
      rolename: `meter-${mac}`,
      acls: [
        ...acl.publish.map((topic) => ({ acltype: 'publishClientSend', topic, allow: true })),
        ...acl.subscribe.flatMap((topic) => [
          { acltype: 'subscribePattern', topic, allow: true },
          { acltype: 'publishClientReceive', topic, allow: true },
        ]),
      ],
    };
  return {
    rolename: `meter-${mac}`,
    acls: [
      ...DEVICE_PUBLISH_KINDS.map((k) => ({
        acltype: 'publishClientSend',
        topic: deviceTopic(mac, k),
        allow: true,
      })),
      ...DEVICE_SUBSCRIBE_KINDS.flatMap((k) => [
        { acltype: 'subscribeLiteral', topic: deviceTopic(mac, k), allow: true },
        { acltype: 'publishClientReceive', topic: deviceTopic(mac, k), allow: true },
      ]),
    ],
  };
}

/** Connects to the broker as its dynamic security administrator. */
export async function connectBrokerAccounts(url: string, timeoutMs = TIMEOUT_MS): Promise<BrokerAccounts> {
  const client = await mqtt.connectAsync(url, {
    clientId: `meterportal-dynsec-${randomBytes(4).toString('hex')}`,
    reconnectPeriod: 0,
    clean: true,
  });
  const waiting = new Map<string, { resolve: (r: { error?: string }) => void }>();
  client.on('message', (_topic, payload) => {
    let body: { responses?: { correlationData?: string; error?: string }[] };
    try {
      body = JSON.parse(payload.toString()) as typeof body;
    } catch {
      return;
    }
    for (const r of body.responses ?? []) {
      const w = r.correlationData ? waiting.get(r.correlationData) : undefined;
      if (w) {
        waiting.delete(r.correlationData!);
        w.resolve(r);
      }
    }
  });
  await client.subscribeAsync(`${CONTROL}/response`, { qos: 1 });

  /** Sends one command; resolves with the plugin's error text ('' when it succeeded). */
  async function send(command: Command): Promise<string> {
    const correlationData = randomBytes(8).toString('hex');
    const answer = new Promise<{ error?: string }>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(correlationData);
        reject(
          new DynsecError(
            `the broker did not answer ${command.command} (is the dynamic security plugin loaded, and may this account use it?)`,
          ),
        );
      }, timeoutMs);
      waiting.set(correlationData, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
    await client.publishAsync(CONTROL, JSON.stringify({ commands: [{ ...command, correlationData }] }), {
      qos: 1,
    });
    return (await answer).error ?? '';
  }

  async function must(command: Command, tolerated: RegExp | null = null): Promise<void> {
    const error = await send(command);
    if (error && !(tolerated && tolerated.test(error))) throw new DynsecError(`${command.command}: ${error}`);
  }

  return {
    async set(mac, password, acl) {
      const role = meterRole(mac, acl);
      // A new meter's role comes with its rules in one command; a role that is already there has
      // its rules set afresh, so one left from an older portal is corrected.
      const roleError = await send({ command: 'createRole', ...role });
      if (roleError && !/already exists/i.test(roleError)) throw new DynsecError(`createRole: ${roleError}`);
      if (roleError) {
        for (const acl of role.acls) {
          await must(
            { command: 'removeRoleACL', rolename: role.rolename, acltype: acl.acltype, topic: acl.topic },
            /not found/i,
          );
          await must({ command: 'addRoleACL', rolename: role.rolename, ...acl });
        }
      }
      const created = await send({
        command: 'createClient',
        username: mac,
        password,
        clientid: meterClientId(mac),
        roles: [{ rolename: role.rolename }],
      });
      if (!created) return;
      if (!/already exists/i.test(created)) throw new DynsecError(`createClient: ${created}`);
      // An account that is there gets the new secret, its bound client id and exactly the meter's role.
      await must({
        command: 'modifyClient',
        username: mac,
        password,
        clientid: meterClientId(mac),
        roles: [{ rolename: role.rolename }],
      });
    },
    async remove(mac) {
      await must({ command: 'deleteClient', username: mac }, /not found/i);
      await must({ command: 'deleteRole', rolename: meterRole(mac).rolename }, /not found/i);
    },
    async close() {
      await client.endAsync();
    },
  };
}

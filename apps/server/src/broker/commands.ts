// Request/reply to devices over MQTT: publishes on cmd/req with a correlation id and resolves
// with the matching cmd/res, or fails with 604 when the device does not answer in time.
import { randomUUID } from 'node:crypto';
import {
  COMMAND_TIMEOUT_SEC,
  ErrorCode,
  deviceTopic,
  encodePayload,
  type CommandReply,
  type CommandRequest,
  type DeviceMessage,
} from '@meterportal/protocol';
import type { BrokerLink } from './broker-link';

/** The device did not answer in time or is offline (code 604). */
export class DeviceNotRespondingError extends Error {
  readonly code = ErrorCode.DeviceNotResponding;
  constructor(
    readonly mac: string,
    readonly cmd: string,
  ) {
    super(`device ${mac} did not answer ${cmd}`);
  }
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
/** A command without its correlation id (the client adds it). */
export type CommandInput = WithoutId<CommandRequest>;

/**
 * Creates the command client; the device link connects it to its broker once connected and feeds
 * it every device message with onDeviceMessage. Unconnected, every command answers 604.
 */
export function createDeviceCommands(deps: { timeoutMs?: number } = {}) {
  const timeoutMs = deps.timeoutMs ?? COMMAND_TIMEOUT_SEC * 1000;
  const waiting = new Map<string, { mac: string; resolve(r: CommandReply): void }>();
  let link: BrokerLink | null = null;
  return {
    /** Sends further commands through this broker connection. */
    connect(broker: BrokerLink): void {
      link = broker;
    },
    /** Stops sending: the broker connection is closing. */
    disconnect(): void {
      link = null;
    },
    /** Sends a command and waits for the device's reply; `signal` stops waiting (client gone). */
    async send(mac: string, command: CommandInput, signal?: AbortSignal): Promise<CommandReply> {
      const broker = link;
      if (!broker) throw new DeviceNotRespondingError(mac, command.cmd);
      signal?.throwIfAborted();
      const id = randomUUID();
      const reply = new Promise<CommandReply>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          signal?.removeEventListener('abort', onAbort);
        };
        const timer = setTimeout(() => {
          done();
          reject(new DeviceNotRespondingError(mac, command.cmd));
        }, timeoutMs);
        const onAbort = () => {
          done();
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, {
          mac,
          resolve: (r) => {
            done();
            resolve(r);
          },
        });
      });
      await broker.publish(deviceTopic(mac, 'cmd/req'), encodePayload({ ...command, id }));
      return reply;
    },
    /** Routes replies to the waiting senders; other messages are ignored. */
    onDeviceMessage(message: DeviceMessage): void {
      if (message.kind !== 'cmd/res') return;
      const w = waiting.get(message.payload.id);
      // A reply must come from the device that was asked.
      if (w && w.mac === message.mac) w.resolve(message.payload);
    },
    /** Commands waiting for a reply. */
    pending: () => waiting.size,
  };
}

/** The command client. */
export type DeviceCommands = ReturnType<typeof createDeviceCommands>;

import mqtt from 'mqtt';
import { randomBytes } from 'node:crypto';
import {
  DEVICE_PUBLISH_KINDS,
  decodeDeviceMessage,
  fleetTopicFilter,
  NotificationEntry,
} from '@meterportal/protocol';
import { z } from 'zod';
import type { Logger } from '../telemetry/burst-log';
import { localLiveBus, type LiveBus } from './bus';
import { publishDeviceMessage } from './feed';

/** Topic where the ingesting instance announces recorded notifications to the others. */
export const NOTIFICATION_TOPIC_PREFIX = 'portal/notification/';

const Announcement = z.object({ entry: NotificationEntry, inAppUserIds: z.array(z.number().int()) });

/**
 * The live bus of an instance that serves websockets but does not ingest: it listens on the
 * external broker to the devices' own topics and to the notifications the ingesting instance
 * announces, so every instance behind the load balancer delivers the same streams.
 */
export async function brokerLiveBus(url: string, logger: Logger): Promise<LiveBus> {
  const local = localLiveBus();
  const client = await mqtt.connectAsync(url, {
    clientId: `meterportal-live-${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
  });
  const filters = DEVICE_PUBLISH_KINDS.filter((k) => k !== 'cmd/res' && k !== 'event').map((k) =>
    fleetTopicFilter(k),
  );
  await client.subscribeAsync([...filters, `${NOTIFICATION_TOPIC_PREFIX}+`], { qos: 0 });
  client.on('message', (topic, payload) => {
    if (topic.startsWith(NOTIFICATION_TOPIC_PREFIX)) {
      try {
        const a = Announcement.parse(JSON.parse(payload.toString('utf8')));
        local.publish(a.entry.mac, { kind: 'notification', entry: a.entry, inAppUserIds: a.inAppUserIds });
      } catch {
        logger.warn({ topic }, 'bad notification announcement');
      }
      return;
    }
    const decoded = decodeDeviceMessage(topic, payload);
    if (decoded.ok) publishDeviceMessage(local, decoded.message);
  });
  return {
    publish: (mac, event) => local.publish(mac, event),
    subscribe: (mac, listener) => local.subscribe(mac, listener),
    async close() {
      await client.endAsync();
      await local.close();
    },
  };
}

/** Announces a recorded notification on the broker for the instances that do not ingest. */
export function announcer(url: string) {
  const client = mqtt.connect(url, {
    clientId: `meterportal-announce-${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
  });
  return {
    announce(mac: string, body: z.infer<typeof Announcement>): void {
      client.publish(`${NOTIFICATION_TOPIC_PREFIX}${mac}`, JSON.stringify(body), { qos: 1 });
    },
    close: () => client.endAsync(),
  };
}

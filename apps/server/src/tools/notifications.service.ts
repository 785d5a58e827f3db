import {
  ErrorCode,
  NotificationData,
  NotifyDestination,
  sourceAllowedFor,
  type NotificationEntry,
  type NotificationType,
} from '@meterportal/protocol';
import type { z } from 'zod';
import type { Clock } from '../clock';
import type { AuthService } from '../auth/auth.service';
import type { DevicesService } from '../devices/devices.service';
import { AppError, Conflict, DataNotFound, InvalidRequest, NotFound } from '../http/errors';
import type { NotificationsRepository } from './notifications.repository';
import type { WebexClient } from './webex';

/** A recorded notification and the users who routed it to the portal itself. */
export interface RecordedNotification {
  entry: NotificationEntry;
  deviceId: number;
  inAppUserIds: number[];
}

const SOURCE_OF: Record<NotificationType, number> = { STATUS: 1, NILM: 2, ANOMALY: 3, DISCONNECTOR: 4 };

/** Webex could not be reached. */
class WebexUnavailable extends AppError {
  constructor() {
    super(ErrorCode.Internal, 'Webex is not reachable');
  }
}

/** Device notifications, their routing pairs, and delivery to Webex spaces. */
export function notificationsService(deps: {
  repo: NotificationsRepository;
  auth: AuthService;
  devices: DevicesService;
  webex: WebexClient;
  clock: Clock;
}) {
  const { repo, auth, devices, webex, clock } = deps;
  const listeners = new Set<(n: RecordedNotification) => void>();

  async function spaces() {
    if (!webex.configured) throw new DataNotFound('No Webex bot is configured');
    try {
      return await webex.listSpaces();
    } catch {
      throw new WebexUnavailable();
    }
  }

  return {
    /** Called for every notification recorded on this instance (the live hub forwards them). */
    onRecorded(listener: (n: RecordedNotification) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Stores a device event and queues its Webex deliveries; sending happens in the delivery
     * worker, so a slow or failing destination never holds up ingest.
     */
    async record(
      deviceId: number,
      mac: string,
      type: NotificationType,
      data: z.infer<typeof NotificationData>,
    ): Promise<RecordedNotification> {
      const now = clock.nowMs();
      const id = await repo.insertNotification(deviceId, type, JSON.stringify(data), now);
      const pairs = await repo.pairsForDevice(deviceId, SOURCE_OF[type]);
      await repo.enqueue(
        pairs.filter((p) => p.dest_type === NotifyDestination.Webex).map((p) => p.id),
        id,
        now,
      );
      const recorded: RecordedNotification = {
        entry: { id, type, mac, data },
        deviceId,
        inAppUserIds: [
          ...new Set(pairs.filter((p) => p.dest_type === NotifyDestination.Cloud).map((p) => p.user_id)),
        ],
      };
      for (const l of listeners) l(recorded);
      return recorded;
    },

    async latest(
      cookie: string | undefined,
      deviceToken: string,
      limit: number,
    ): Promise<NotificationEntry[]> {
      const user = await auth.requireCookieSession(cookie);
      const device = await devices.resolve(user, deviceToken);
      const rows = await repo.latest(device.id, limit);
      return rows.map((r) => ({
        id: r.id,
        type: r.type as NotificationType,
        mac: device.mac,
        data: NotificationData.parse(JSON.parse(r.data)),
      }));
    },

    async webexSpaces(token: string, cookie: string | undefined) {
      await auth.requireSession(token, cookie);
      return (await spaces()).map((s) => ({ ID: s.id, title: s.title }));
    },

    async listPairs(token: string, cookie: string | undefined, deviceToken: string) {
      const user = await auth.requireSession(token, cookie);
      const device = await devices.resolve(user, deviceToken);
      const rows = await repo.pairsOf(user.userId, device.id);
      return rows.map((r) => ({
        ID: r.id,
        ID_notifyType: r.notify_type,
        ID_notifyDestType: r.dest_type,
        webex_space: r.webex_space,
      }));
    },

    async addPair(
      token: string,
      cookie: string | undefined,
      req: {
        device_token: string;
        notifyTypeID: number;
        notifyDestID: 1 | 2;
        webex_space?: string | undefined;
      },
    ): Promise<number> {
      const user = await auth.requireSession(token, cookie);
      const device = await devices.resolve(user, req.device_token);
      if (!sourceAllowedFor(req.notifyTypeID, device.type)) {
        throw new InvalidRequest(
          `Invalid request at notifyTypeID: source ${req.notifyTypeID} is not available for this device`,
        );
      }
      const space = req.notifyDestID === NotifyDestination.Webex ? (req.webex_space ?? null) : null;
      if (space !== null && !(await spaces()).some((s) => s.id === space))
        throw new NotFound('Webex space not found');
      const existing = await repo.pairsOf(user.userId, device.id);
      if (
        existing.some(
          (p) =>
            p.notify_type === req.notifyTypeID && p.dest_type === req.notifyDestID && p.webex_space === space,
        )
      ) {
        throw new Conflict('Object already exist');
      }
      return repo.addPair({
        userId: user.userId,
        deviceId: device.id,
        notifyType: req.notifyTypeID,
        destType: req.notifyDestID,
        webexSpace: space,
        nowMs: clock.nowMs(),
      });
    },

    async deletePair(
      token: string,
      cookie: string | undefined,
      deviceToken: string,
      id: number,
    ): Promise<void> {
      const user = await auth.requireSession(token, cookie);
      const device = await devices.resolve(user, deviceToken);
      if (!(await repo.deletePair(user.userId, device.id, id))) throw new NotFound('Pair not found');
    },
  };
}
/** Device notifications and their routing. */
export type NotificationsService = ReturnType<typeof notificationsService>;

/** Text of a notification as a Webex message. */
export function webexText(deviceTitle: string, mac: string, type: string, dataJson: string): string {
  const d = NotificationData.safeParse(JSON.parse(dataJson));
  const parts = d.success ? [d.data.event, d.data.name, d.data.phase, d.data.message].filter(Boolean) : [];
  const energy =
    d.success && d.data.energy_consumption_wh !== undefined
      ? `, ${d.data.energy_consumption_wh.toFixed(1)} Wh`
      : '';
  const when = d.success ? new Date(d.data.timestamp).toISOString() : '';
  return `**${deviceTitle}** (${mac}) ${type}: ${parts.join(' ') || 'event'}${energy} ${when}`.trim();
}

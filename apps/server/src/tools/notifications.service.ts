import {
  ErrorCode,
  NotificationData,
  type NotificationHistoryRequest,
  NotifyDestination,
  sourceAllowedFor,
  type HistoryEntry,
  type MessageLanguage,
  type NotificationEntry,
  type NotificationType,
} from '@meterportal/protocol';
import type { z } from 'zod';
import type { Clock } from '../clock';
import type { Session } from '../auth/auth.service';
import type { DevicesService } from '../devices/devices.service';
import { AppError, Conflict, DataNotFound, InvalidRequest, NotFound } from '../http/errors';
import type { NotificationsRepository } from './notifications.repository';
import type { Mailer } from './mailer';
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

/** Filters and cursor of a history page as the route takes them. */
export type HistoryRequest = Omit<z.output<typeof NotificationHistoryRequest>, 'user_token'>;

const parseData = (json: string) => NotificationData.parse(JSON.parse(json));

/** Device notifications, their history and read marks, routing pairs, and their delivery. */
export function notificationsService(deps: {
  repo: NotificationsRepository;
  devices: DevicesService;
  webex: WebexClient;
  mailer: Mailer;
  clock: Clock;
}) {
  const { repo, devices, webex, mailer, clock } = deps;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);
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
     * Stores a device event and queues its Webex and e-mail deliveries; sending happens in the
     * delivery worker, so a slow or failing destination never holds up ingest.
     */
    async record(
      deviceId: number,
      mac: string,
      type: NotificationType,
      data: z.infer<typeof NotificationData>,
      /** Only this user's pairs route it (an alarm of one user's rule). */
      onlyUserId?: number,
    ): Promise<RecordedNotification> {
      const now = clock.nowMs();
      const id = await repo.insertNotification(deviceId, type, JSON.stringify(data), now);
      const pairs = (await repo.pairsForDevice(deviceId, SOURCE_OF[type])).filter(
        (p) => onlyUserId === undefined || p.user_id === onlyUserId,
      );
      await repo.enqueue(
        pairs.filter((p) => p.dest_type !== NotifyDestination.Cloud).map((p) => p.id),
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

    async latest(user: Session, deviceToken: string, limit: number): Promise<NotificationEntry[]> {
      const device = await devices.resolve(user, deviceToken);
      const rows = await repo.latest(device.id, limit);
      return rows.map((r) => ({
        id: r.id,
        type: r.type as NotificationType,
        mac: device.mac,
        data: parseData(r.data),
      }));
    },

    /**
     * One page of the stored notifications of the user's devices, newest first. A device filter
     * naming a device the user may not see answers as a missing device does.
     */
    async history(
      user: Session,
      req: HistoryRequest,
    ): Promise<{ items: HistoryEntry[]; next_before_id: number | null }> {
      const device = req.device_token ? await devices.resolve(user, req.device_token) : undefined;
      // One row more than asked tells whether an older page exists.
      const rows = await repo.history({
        userId: user.userId,
        nowSec: nowSec(),
        deviceId: device?.id,
        types: req.types,
        fromMs: req.from_ms,
        toMs: req.to_ms,
        read: req.read,
        beforeId: req.before_id,
        limit: req.limit + 1,
      });
      const page = rows.slice(0, req.limit);
      return {
        items: page.map((r) => ({
          id: r.id,
          type: r.type as NotificationType,
          mac: r.mac,
          data: parseData(r.data),
          at_ms: Number(r.at_ms),
          read: r.read_id !== null,
        })),
        next_before_id: rows.length > req.limit ? (page[page.length - 1]?.id ?? null) : null,
      };
    },

    /** Marks notifications read; when one is not of the user's devices nothing is marked. */
    async markRead(user: Session, ids: number[]): Promise<void> {
      const wanted = [...new Set(ids)];
      const visible = await repo.visibleIds(user.userId, wanted, nowSec());
      if (visible.length !== wanted.length) throw new NotFound('Notification not found');
      await repo.markRead(user.userId, wanted, clock.nowMs());
    },

    /** Whether e-mail can be a destination here; any signed-in user may ask. */
    emailAvailable(): { available: boolean } {
      return { available: mailer.configured };
    },

    /** The bot's Webex spaces; any signed-in user may ask. */
    async webexSpaces() {
      return (await spaces()).map((s) => ({ ID: s.id, title: s.title }));
    },

    async listPairs(user: Session, deviceToken: string) {
      const device = await devices.resolve(user, deviceToken);
      const rows = await repo.pairsOf(user.userId, device.id);
      return rows.map((r) => ({
        ID: r.id,
        ID_notifyType: r.notify_type,
        ID_notifyDestType: r.dest_type,
        webex_space: r.webex_space,
        email: r.email,
      }));
    },

    async addPair(
      user: Session,
      req: {
        device_token: string;
        notifyTypeID: number;
        notifyDestID: 1 | 2 | 3;
        webex_space?: string | undefined;
        email?: string | undefined;
        language?: MessageLanguage | undefined;
      },
    ): Promise<number> {
      const device = await devices.resolve(user, req.device_token);
      if (!sourceAllowedFor(req.notifyTypeID, device.type)) {
        throw new InvalidRequest(
          `Invalid request at notifyTypeID: source ${req.notifyTypeID} is not available for this device`,
        );
      }
      const space = req.notifyDestID === NotifyDestination.Webex ? (req.webex_space ?? null) : null;
      if (space !== null && !(await spaces()).some((s) => s.id === space))
        throw new NotFound('Webex space not found');
      const email = req.notifyDestID === NotifyDestination.Email ? (req.email ?? null) : null;
      if (email !== null && !mailer.configured) throw new DataNotFound('No SMTP server is configured');
      const existing = await repo.pairsOf(user.userId, device.id);
      if (
        existing.some(
          (p) =>
            p.notify_type === req.notifyTypeID &&
            p.dest_type === req.notifyDestID &&
            p.webex_space === space &&
            (p.email ?? '').toLowerCase() === (email ?? '').toLowerCase(),
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
        email,
        emailLanguage: email !== null ? (req.language ?? 'en') : null,
        nowMs: clock.nowMs(),
      });
    },

    async deletePair(user: Session, deviceToken: string, id: number): Promise<void> {
      const device = await devices.resolve(user, deviceToken);
      if (!(await repo.deletePair(user.userId, device.id, id))) throw new NotFound('Pair not found');
    },
  };
}
/** Device notifications, their history and their routing. */
export type NotificationsService = ReturnType<typeof notificationsService>;

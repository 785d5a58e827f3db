import type { TFunction } from 'i18next';
import type { NotificationEntry } from '@meterportal/protocol';

/** A notification as the bell shows it: from the live socket or read back from the server. */
export type BellEntry = NotificationEntry;

const TYPES = ['STATUS', 'ANOMALY', 'NILM', 'DISCONNECTOR'] as const;
const STATUSES = ['ONLINE', 'OFFLINE', 'DATABASE_UPDATE'] as const;
const RELAY_CAUSES = ['COMMAND', 'OVERLOAD', 'MANUAL'] as const;

function oneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

/** The kind of a notification in the user's language. */
export function notificationKind(t: TFunction, type: string): string {
  return oneOf(TYPES, type) ? t(`shell.notification_types.${type}`) : t('shell.notifications');
}

/**
 * What happened, in the user's language. Devices and the server report codes (ONLINE, OPEN,
 * OVERLOAD, ON); only names given by people (an appliance's name) are shown as they are.
 */
export function notificationText(t: TFunction, n: Pick<BellEntry, 'type' | 'data'>): string {
  const d = n.data;
  const phase = d.phase ? t('shell.notification_text.phase', { phase: d.phase }) : '';
  const parts: string[] = [];
  switch (n.type) {
    case 'STATUS':
      parts.push(
        oneOf(STATUSES, d.event)
          ? t(`shell.notification_text.status_${d.event}`)
          : t('shell.notification_text.status_changed'),
      );
      break;
    case 'DISCONNECTOR':
      parts.push(
        d.event === 'OPEN' || d.event === 'CLOSED'
          ? t(`shell.notification_text.relay_${d.event}`)
          : t('shell.notification_text.relay_changed'),
      );
      if (oneOf(RELAY_CAUSES, d.message)) parts.push(t(`shell.notification_text.cause_${d.message}`));
      break;
    case 'NILM': {
      const name = d.name ?? t('shell.notification_text.appliance');
      parts.push(
        d.event === 'ON' || d.event === 'OFF'
          ? t(`shell.notification_text.appliance_${d.event}`, { name })
          : name,
      );
      break;
    }
    case 'ANOMALY':
      parts.push(t('shell.notification_text.anomaly'));
      break;
    default:
      parts.push(t('shell.notifications'));
  }
  if (phase) parts.push(phase);
  return parts.join(' · ');
}

/** When it happened, ms (the server stores and sends every notification time in ms); none when unknown. */
export function notificationTimeMs(timestamp: number | undefined): number | undefined {
  return timestamp !== undefined && timestamp > 0 ? timestamp : undefined;
}

/**
 * The latest entries of both sources, each once: newest first by its stored id (the server's
 * order), at most `max`.
 */
export function mergeNotifications(
  live: readonly BellEntry[],
  stored: readonly BellEntry[],
  max: number,
): BellEntry[] {
  const byId = new Map<string, BellEntry>();
  for (const n of [...live, ...stored]) {
    const id = String(n.id);
    if (!byId.has(id)) byId.set(id, n);
  }
  const order = (n: BellEntry) => (typeof n.id === 'number' ? n.id : Number(n.id));
  return [...byId.values()]
    .sort((a, b) => {
      const x = order(a);
      const y = order(b);
      if (Number.isFinite(x) && Number.isFinite(y)) return y - x;
      return (notificationTimeMs(b.data.timestamp) ?? 0) - (notificationTimeMs(a.data.timestamp) ?? 0);
    })
    .slice(0, max);
}

import type { TFunction } from 'i18next';
import { notificationPhrases, type NotificationEntry } from '@meterportal/protocol';
import { formatFixed } from '../../i18n/format';

/** A notification as the bell shows it: from the live socket or read back from the server. */
export type BellEntry = NotificationEntry;

const TYPES = ['STATUS', 'ANOMALY', 'NILM', 'DISCONNECTOR'] as const;

/** The kind of a notification in the user's language. */
export function notificationKind(t: TFunction, type: string): string {
  return (TYPES as readonly string[]).includes(type)
    ? t(`shell.notification_types.${type as (typeof TYPES)[number]}`)
    : t('shell.notifications');
}

/**
 * What happened, in the user's language. Devices and the server report codes (ONLINE, OPEN,
 * OVERLOAD, ON); only names given by people (an appliance's name) are shown as they are.
 */
export function notificationText(t: TFunction, n: Pick<BellEntry, 'type' | 'data'>): string {
  const d = n.data;
  // An alarm of one of the user's rules rides on the status source.
  if (n.type === 'STATUS' && (d.event === 'ALARM_RAISED' || d.event === 'ALARM_CLEARED'))
    return t(d.event === 'ALARM_RAISED' ? 'alarms.bell_raised' : 'alarms.bell_cleared', {
      name: d.name ?? '',
    });
  // An anomaly of a household meter's model says what was expected and what was seen.
  if (n.type === 'ANOMALY' && d.event === 'ANOMALY_STARTED')
    return t('anomalies.bell_started', {
      seen: formatFixed((d.energy_consumption_wh ?? 0) / 1000),
      low: formatFixed((d.expected_low_wh ?? 0) / 1000),
      high: formatFixed((d.expected_high_wh ?? 0) / 1000),
    });
  if (n.type === 'ANOMALY' && d.event === 'ANOMALY_ENDED') return t('anomalies.bell_ended');
  return notificationPhrases(n)
    .map((p) => {
      const appliance = t('shell.notification_text.appliance');
      if (p.key === 'event') return t('shell.notifications');
      if (p.key === 'phase') return t('shell.notification_text.phase', { phase: p.phase ?? '' });
      if (p.key === 'appliance') return p.name ?? appliance;
      if (p.key === 'appliance_ON' || p.key === 'appliance_OFF')
        return t(`shell.notification_text.${p.key}`, { name: p.name ?? appliance });
      return t(`shell.notification_text.${p.key}`);
    })
    .join(' · ');
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

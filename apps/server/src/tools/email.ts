import {
  NOTIFICATION_TEXTS,
  NOTIFICATION_TYPES,
  NotificationData,
  NotifyDestination,
  notificationPhrases,
  unixMs,
  type MessageLanguage,
} from '@meterportal/protocol';
import type { DeliveryChannel } from './notificationDelivery';
import type { Mailer } from './mailer';

interface Words {
  locale: string;
  /** What an event of no known kind is called. */
  notification: string;
  device: string;
  event: string;
  time: string;
  footer: string;
}

/** The words of notification e-mails around the kinds and phrases the web app shows too. */
const WORDS: Record<MessageLanguage, Words> = {
  en: {
    locale: 'en-GB',
    notification: 'Notification',
    device: 'Device',
    event: 'Event',
    time: 'Time',
    footer: 'Sent by the meter portal because this address is paired with the device.',
  },
  sk: {
    locale: 'sk-SK',
    notification: 'Notifikácia',
    device: 'Zariadenie',
    event: 'Udalosť',
    time: 'Čas',
    footer: 'Odoslané portálom meradiel, lebo táto adresa je spárovaná so zariadením.',
  },
  de: {
    locale: 'de-DE',
    notification: 'Benachrichtigung',
    device: 'Gerät',
    event: 'Ereignis',
    time: 'Zeit',
    footer: 'Vom Zählerportal gesendet, weil diese Adresse mit dem Gerät gekoppelt ist.',
  },
};

const isLanguage = (l: string | null): l is MessageLanguage => l === 'en' || l === 'sk' || l === 'de';

/** A stored notification as an e-mail needs it. */
export interface MailedNotification {
  title: string;
  mac: string;
  type: string;
  /** JSON of the notification data. */
  data: string;
  /** When the portal recorded it, unix ms (the time shown when the data has none). */
  atMs: number;
}

/**
 * Subject and body of a notification e-mail in a language: the device's title and MAC, the event
 * and its local time in the installation's zone.
 */
export function emailMessage(
  language: MessageLanguage,
  tz: string,
  n: MailedNotification,
): { subject: string; text: string } {
  const w = WORDS[language];
  const texts = NOTIFICATION_TEXTS[language];
  const type = NOTIFICATION_TYPES.find((k) => k === n.type);
  const parsed = NotificationData.safeParse(JSON.parse(n.data));
  const data = parsed.success ? parsed.data : { timestamp: unixMs(n.atMs) };
  const event = type
    ? notificationPhrases({ type, data })
        .map((p) => {
          if (p.key === 'event') return w.notification;
          if (p.key === 'appliance') return p.name ?? texts.phrases.appliance;
          return texts.phrases[p.key]
            .replace('{{name}}', p.name ?? texts.phrases.appliance)
            .replace('{{phase}}', p.phase ?? '');
        })
        .join(' · ')
    : w.notification;
  const kind = type ? texts.types[type] : w.notification;
  const timeMs = data.timestamp > 0 ? data.timestamp : n.atMs;
  const time = new Intl.DateTimeFormat(w.locale, {
    timeZone: tz,
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(timeMs);
  return {
    subject: `${n.title}: ${kind} · ${event}`,
    text: [
      `${w.device}: ${n.title} (${n.mac})`,
      `${w.event}: ${kind} · ${event}`,
      `${w.time}: ${time} (${tz})`,
      '',
      w.footer,
    ].join('\n'),
  };
}

/** Delivers queued notifications to the e-mail addresses of their pairs. */
export function emailChannel(mailer: Mailer, tz: string): DeliveryChannel {
  return {
    destType: NotifyDestination.Email,
    async send(d) {
      if (!d.email) throw new Error('pair has no address');
      const language = isLanguage(d.email_language) ? d.email_language : 'en';
      const message = emailMessage(language, tz, {
        title: d.title,
        mac: d.mac,
        type: d.type,
        data: d.data,
        atMs: d.at_ms,
      });
      await mailer.send({ to: d.email, ...message });
    },
  };
}

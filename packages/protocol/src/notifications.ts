import { z } from 'zod';
import { DeviceTokenString, UserToken, okWith } from './common';
import { UnixMs } from './units';

/** Kinds of device notification. */
export const NOTIFICATION_TYPES = ['STATUS', 'ANOMALY', 'NILM', 'DISCONNECTOR'] as const;
/** A kind of device notification. */
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Notification sources of a pair (seed 001 section 3), with the device types they apply to. */
export const NotifySource = {
  /** Device status changes; every device type. */
  DeviceStatus: 1,
  /** Appliance (NILM) events; device type 1 only. */
  Nilm: 2,
  /** Anomaly events; device type 1 only. */
  Anomaly: 3,
  /** Disconnector events; device type 2 only. */
  Disconnector: 4,
} as const;

/** Which notification type each source id carries. */
export const SOURCE_TYPE: Record<number, NotificationType> = {
  1: 'STATUS',
  2: 'NILM',
  3: 'ANOMALY',
  4: 'DISCONNECTOR',
};

/** True when a source id may be paired for a device of this type. */
export function sourceAllowedFor(sourceId: number, deviceType: number): boolean {
  switch (sourceId) {
    case NotifySource.DeviceStatus:
      return true;
    case NotifySource.Nilm:
    case NotifySource.Anomaly:
      return deviceType === 1;
    case NotifySource.Disconnector:
      return deviceType === 2;
    default:
      return false;
  }
}

/** Destinations: 1 the portal itself (bell and toast), 2 a Webex space, 3 an e-mail address. */
export const NotifyDestination = { Cloud: 1, Webex: 2, Email: 3 } as const;
/** A destination id: 1 cloud, 2 Webex, 3 e-mail. */
export type NotifyDestinationId = (typeof NotifyDestination)[keyof typeof NotifyDestination];

/** What a notification says (seed 000 section 3). */
export const NotificationData = z.object({
  /** Unix milliseconds, whoever made the notification (a device's seconds are converted once). */
  timestamp: UnixMs,
  event: z.string().optional(),
  message: z.string().optional(),
  name: z.string().optional(),
  phase: z.string().optional(),
  energy_consumption_wh: z.number().optional(),
  prediction_rate: z.number().optional(),
  runtime: z.number().optional(),
  /** An anomaly's expected band over its hours, Wh. */
  expected_low_wh: z.number().optional(),
  expected_high_wh: z.number().optional(),
});
/** One stored notification. */
export const NotificationEntry = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  mac: z.string(),
  data: NotificationData,
});
/** One stored notification. */
export type NotificationEntry = z.infer<typeof NotificationEntry>;

/** Body of POST /notifications: the latest of one device. */
export const NotificationListRequest = z.object({
  device_token: DeviceTokenString,
  limit: z.number().int().min(1).max(100).default(5),
});
/** Answer of POST /notifications. */
export const NotificationListResponse = okWith(z.array(NotificationEntry));

/** Body of POST /tools/notifications/webex-spaces. */
export const WebexSpacesRequest = z.object({ user_token: UserToken });
/** Answer of webex-spaces: ID and title per space. */
export const WebexSpacesResponse = okWith(z.array(z.object({ ID: z.string(), title: z.string() })));

/** Languages an e-mail destination's messages can be written in. */
export const MESSAGE_LANGUAGES = ['en', 'sk', 'de'] as const;
/** A language of e-mail messages. */
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** An e-mail address as a destination takes it: one mailbox, no display name. */
export const EmailAddress = z
  .string()
  .max(254)
  .regex(/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/, 'not an e-mail address');

/** Body of POST (read) /tools/notifications/email. */
export const EmailDestinationRequest = z.object({ user_token: UserToken });
/** Answer of /tools/notifications/email: whether the installation can send e-mail. */
export const EmailDestinationResponse = okWith(z.object({ available: z.boolean() }));

/** Body of POST (read) /tools/notifications/pair. */
export const PairListRequest = z.object({ user_token: UserToken, device_token: DeviceTokenString });
/** One stored pair as the server keeps it. */
export const PairRow = z.object({
  ID: z.number().int(),
  ID_notifyType: z.number().int(),
  ID_notifyDestType: z.number().int(),
  webex_space: z.string().nullable(),
  /** The address of an e-mail destination; null for the others. */
  email: z.string().nullable(),
});
/** Answer of POST (read) /tools/notifications/pair. */
export const PairListResponse = okWith(z.array(PairRow));

/** Body of POST (write) /tools/notifications/pair. */
export const PairAddRequest = z
  .object({
    user_token: UserToken,
    device_token: DeviceTokenString,
    notifyTypeID: z.number().int().min(1).max(4),
    notifyDestID: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    webex_space: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9_=+/-]+$/, 'not a space id')
      .optional(),
    /** The address of an e-mail destination. */
    email: EmailAddress.optional(),
    /** Language of the e-mail messages (the user's language when the pair is made). */
    language: z.enum(MESSAGE_LANGUAGES).optional(),
  })
  .refine((r) => (r.notifyDestID === 2) === (r.webex_space !== undefined), {
    message: 'webex_space is required for destination 2 and only for it',
    path: ['webex_space'],
  })
  .refine((r) => (r.notifyDestID === 3) === (r.email !== undefined && r.language !== undefined), {
    message: 'email and language are required for destination 3 and only for it',
    path: ['email'],
  });
/** Answer of POST (write) /tools/notifications/pair. */
export const PairAddResponse = okWith(z.object({ ID_notify: z.number().int() }));
/** Body of DELETE /tools/notifications/pair. */
export const PairDeleteRequest = z.object({
  user_token: UserToken,
  device_token: DeviceTokenString,
  ID: z.number().int(),
});

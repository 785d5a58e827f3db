import { z } from 'zod';
import { DeviceTokenString, UserToken, okWith } from './common';
import { NOTIFICATION_TYPES, NotificationEntry } from './notifications';

/** Largest page of the notification history. */
export const HISTORY_PAGE_MAX = 100;

/** Read state a history filter can ask for. */
export const READ_STATES = ['READ', 'UNREAD'] as const;

/**
 * Body of POST (read) /notifications/history: the stored notifications of the user's devices,
 * newest first, one page at a time. `before_id` is the cursor: the `next_before_id` of the
 * previous page.
 */
export const NotificationHistoryRequest = z
  .object({
    user_token: UserToken,
    /** Only this device; absent: every device assigned to the user. */
    device_token: DeviceTokenString.optional(),
    /** Only these types; absent: every type. */
    types: z.array(z.enum(NOTIFICATION_TYPES)).min(1).max(NOTIFICATION_TYPES.length).optional(),
    /** Recorded at or after, unix ms. */
    from_ms: z.number().int().min(0).optional(),
    /** Recorded at or before, unix ms. */
    to_ms: z.number().int().min(0).optional(),
    /** Only read or only unread ones. */
    read: z.enum(READ_STATES).optional(),
    before_id: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(HISTORY_PAGE_MAX).default(20),
  })
  .refine((r) => r.from_ms === undefined || r.to_ms === undefined || r.from_ms <= r.to_ms, {
    message: 'from_ms must not be after to_ms',
    path: ['from_ms'],
  });

/** One notification of the history: what the bell shows, plus when it was recorded and whether it was read. */
export const HistoryEntry = NotificationEntry.extend({
  /** When the portal recorded it, unix ms. */
  at_ms: z.number().int(),
  read: z.boolean(),
});
/** One notification of the history. */
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Answer of /notifications/history: one page and the cursor of the next (null on the last). */
export const NotificationHistoryResponse = okWith(
  z.object({ items: z.array(HistoryEntry), next_before_id: z.number().int().nullable() }),
);

/** Body of POST (write) /notifications/read: mark notifications read for the signed-in user. */
export const NotificationReadRequest = z.object({
  user_token: UserToken,
  ids: z.array(z.number().int().min(1)).min(1).max(HISTORY_PAGE_MAX),
});

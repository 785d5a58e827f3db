import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';
import { NotificationEntry } from './notifications';

/** Position of a disconnector's load relay. */
export const RelayState = z.enum(['OPEN', 'CLOSED']);
/** Position of a disconnector's load relay. */
export type RelayState = z.infer<typeof RelayState>;

/** Why a relay moved: a user of the portal, or the device's own reason (its DISCONNECTOR event). */
export const RELAY_CAUSES = ['USER', 'COMMAND', 'OVERLOAD', 'MANUAL'] as const;
/** Why a relay moved. */
export type RelayCause = (typeof RELAY_CAUSES)[number];

/** How many switchings and DISCONNECTOR notifications the relay history answers. */
export const RELAY_HISTORY_LIMIT = 50;

/** One switching of the relay. */
export const RelaySwitching = z.object({
  /** When it happened, unix milliseconds. */
  atMs: z.number().int(),
  state: RelayState,
  cause: z.enum(RELAY_CAUSES),
  /** Who switched it (cause USER); null for the device's own switchings or a removed user. */
  login: z.string().nullable(),
});
/** One switching of the relay. */
export type RelaySwitching = z.infer<typeof RelaySwitching>;

/** Body of POST /devices/relay/history (read door). */
export const RelayHistoryRequest = z.object({ token: DeviceTokenString });
/** Answer: the last known state, the switchings newest first, and the device's DISCONNECTOR notifications. */
export const RelayHistoryResponse = okWith(
  z.object({
    /** The position after the latest switching; null when none is known. */
    state: RelayState.nullable(),
    switchings: z.array(RelaySwitching),
    notifications: z.array(NotificationEntry),
  }),
);

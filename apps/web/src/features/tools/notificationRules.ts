import {
  NotifyDestination,
  NotifySource,
  sourceAllowedFor,
  type NotifyDestinationId,
} from '@meterportal/protocol';

/** Every notification source id, in the order the select lists them. */
export const SOURCE_IDS = [
  NotifySource.DeviceStatus,
  NotifySource.Nilm,
  NotifySource.Anomaly,
  NotifySource.Disconnector,
] as const;

/** A pair as the table shows it. */
export interface Pair {
  ID: number;
  /** Source id (1 to 4). */
  notifyType: number;
  destination: Destination;
}

/** A place a notification can go: the portal itself, one Webex space, or one e-mail address. */
export interface Destination {
  /** 1 cloud, 2 Webex, 3 e-mail. */
  ID_dest: NotifyDestinationId;
  /** 1 for the cloud; the space id for Webex; the address for e-mail (empty: yet to be typed). */
  ID: string;
  /** The space title (Webex only). */
  title?: string;
}

/** The portal's own destination. */
export const CLOUD_DESTINATION: Destination = { ID_dest: NotifyDestination.Cloud, ID: '1' };

/** Sources a device of this type may pair. */
export function sourcesFor(deviceType: number): number[] {
  return SOURCE_IDS.filter((id) => sourceAllowedFor(id, deviceType));
}

/** An e-mail destination whose address the user types when choosing it. */
export const NEW_EMAIL_DESTINATION: Destination = { ID_dest: NotifyDestination.Email, ID: '' };

/** The cloud, every Webex space the bot is in, and an e-mail address when the installation sends e-mail. */
export function allDestinations(
  spaces: readonly { ID: string; title: string }[],
  email = false,
): Destination[] {
  return [
    CLOUD_DESTINATION,
    ...spaces.map((s) => ({ ID_dest: NotifyDestination.Webex, ID: s.ID, title: s.title })),
    ...(email ? [NEW_EMAIL_DESTINATION] : []),
  ];
}

/** Same destination: the kind, for Webex the space, for e-mail the address in any case. */
export function sameDestination(a: Destination, b: Destination): boolean {
  if (a.ID_dest !== b.ID_dest) return false;
  if (a.ID_dest === NotifyDestination.Email) return a.ID.toLowerCase() === b.ID.toLowerCase();
  return a.ID_dest === NotifyDestination.Cloud || a.ID === b.ID;
}

/** Destinations not already paired with this source (seed 001 section 4). */
export function freeDestinations(
  source: number,
  destinations: readonly Destination[],
  pairs: readonly Pair[],
): Destination[] {
  const taken = pairs.filter((p) => p.notifyType === source).map((p) => p.destination);
  return destinations.filter((d) => !taken.some((t) => sameDestination(t, d)));
}

/** Reads a server row into a pair; a Webex space no longer listed keeps its id as the title. */
export function toPair(
  row: {
    ID: number;
    ID_notifyType: number;
    ID_notifyDestType: number;
    webex_space: string | null;
    email?: string | null;
  },
  spaces: readonly { ID: string; title: string }[],
): Pair {
  if (row.ID_notifyDestType === NotifyDestination.Email) {
    return {
      ID: row.ID,
      notifyType: row.ID_notifyType,
      destination: { ID_dest: NotifyDestination.Email, ID: row.email ?? '' },
    };
  }
  if (row.ID_notifyDestType === NotifyDestination.Webex) {
    const id = row.webex_space ?? '';
    return {
      ID: row.ID,
      notifyType: row.ID_notifyType,
      destination: {
        ID_dest: NotifyDestination.Webex,
        ID: id,
        title: spaces.find((s) => s.ID === id)?.title ?? id,
      },
    };
  }
  return { ID: row.ID, notifyType: row.ID_notifyType, destination: CLOUD_DESTINATION };
}

/** Stable select value of a destination. */
export function destinationKey(d: Destination): string {
  return `${d.ID_dest}:${d.ID}`;
}

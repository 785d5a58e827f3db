import { ErrorCode } from '@meterportal/protocol';

/** Websocket reconnect policy and state rules (seed 000 sections 4 and 9). */
export const WS_RECONNECT_MS = 15_000;
export const WS_MAX_ATTEMPTS = 200;
export const NOTIFICATIONS_KEPT = 5;

/** Failure codes that end the session: the user is sent to /login. */
export const WS_FAILURE_CODES: readonly number[] = [
  ErrorCode.WsSessionInvalid,
  ErrorCode.WsDeviceDenied,
  ErrorCode.WsAssignmentEnded,
  ErrorCode.WsBadMessage,
];

export function shouldReconnect(attempts: number, failed: boolean, left: boolean): boolean {
  return !failed && !left && attempts < WS_MAX_ATTEMPTS;
}

/** Runtime fields of a device, from pushed State messages. */
export interface DeviceRuntime {
  status?: string;
  fw?: string;
  connection?: string;
  device?: unknown;
}

export const DIFFERENT_USERNAME = 'DIFFERENT USERNAME';

/** A State message sets the status only if it is about the current user's session. */
export function applyState(
  data: { user?: unknown; status?: unknown; fw?: unknown; connection?: unknown; device?: unknown },
  currentUser: string,
): DeviceRuntime {
  const status =
    data.user === currentUser
      ? typeof data.status === 'string'
        ? data.status
        : undefined
      : DIFFERENT_USERNAME;
  const out: DeviceRuntime = { device: data.device };
  if (status !== undefined) out.status = status;
  if (typeof data.fw === 'string') out.fw = data.fw;
  if (typeof data.connection === 'string') out.connection = data.connection;
  return out;
}

/** Connection indicator: ONLINE via BT_MQTT_DB 2, ONLINE otherwise 1, DIFFERENT USERNAME 2, else 0. */
export function connectionLevel(rt: DeviceRuntime | undefined): 0 | 1 | 2 {
  if (!rt?.status) return 0;
  if (rt.status === 'ONLINE') return rt.connection === 'BT_MQTT_DB' ? 2 : 1;
  if (rt.status === DIFFERENT_USERNAME) return 2;
  return 0;
}

/** Newest first, at most five. */
export function keepLatest<T>(list: readonly T[], item: T, max = NOTIFICATIONS_KEPT): T[] {
  return [item, ...list].slice(0, max);
}

/** A stretch of time with one online state. */
export interface StateSpan {
  fromMs: number;
  toMs: number;
  online: boolean;
}

/** Online status codes 1 (online) and 2 (database update) both mean the device is connected. */
export const isOnlineStatus = (status: number): boolean => status === 1 || status === 2;

/**
 * Spans of [fromMs, toMs) from the status before the range and the changes within it. Time before
 * the first known status counts as offline: a device that never reported is not available.
 */
export function stateSpans(
  fromMs: number,
  toMs: number,
  before: { status: number } | undefined,
  changes: { at_ms: number; status: number }[],
): StateSpan[] {
  const spans: StateSpan[] = [];
  let cursor = fromMs;
  let online = before ? isOnlineStatus(before.status) : false;
  for (const c of changes) {
    const at = Math.min(Math.max(c.at_ms, fromMs), toMs);
    if (at > cursor) spans.push({ fromMs: cursor, toMs: at, online });
    cursor = Math.max(cursor, at);
    online = isOnlineStatus(c.status);
  }
  if (toMs > cursor) spans.push({ fromMs: cursor, toMs, online });
  return spans;
}

/** Online milliseconds of the spans within [fromMs, toMs). */
export function onlineMs(spans: StateSpan[], fromMs: number, toMs: number): number {
  let total = 0;
  for (const s of spans) {
    if (!s.online) continue;
    const a = Math.max(s.fromMs, fromMs);
    const b = Math.min(s.toMs, toMs);
    if (b > a) total += b - a;
  }
  return total;
}

/** Hours the device had been online without a break at instant atMs (0 when offline then). */
export function uptimeHoursAt(
  spans: StateSpan[],
  atMs: number,
  onlineSinceBeforeRangeMs: number | undefined,
): number {
  let since: number | undefined;
  spans.forEach((s, i) => {
    if (s.fromMs >= atMs) return;
    if (!s.online) since = undefined;
    // An online stretch open when the range starts began before it.
    else since ??= i === 0 && onlineSinceBeforeRangeMs !== undefined ? onlineSinceBeforeRangeMs : s.fromMs;
  });
  return since === undefined ? 0 : (atMs - since) / 3_600_000;
}

// Daily energy rollup: the quarter-hour energy of each device summed per local day of the
// installation's time zone. A row always equals the sum of its day's quarter rows, so reading
// whole days from it gives the same watt-hours as reading the quarters, from 96 times fewer rows.
// The statements live in day-rollup.repository.ts.

/** Energy of one device and local day, in ENERGY_COLUMNS order. */
export interface DayRow {
  deviceId: number;
  daySec: number;
  values: number[];
}

/** Sums quarter rows into day rows; dayOf maps a quarter start to its local day start. */
export function sumIntoDays(
  quarters: readonly { deviceId: number; tsSec: number; values: readonly number[] }[],
  dayOf: (tsSec: number) => number,
): DayRow[] {
  const days = new Map<string, DayRow>();
  for (const q of quarters) {
    const daySec = dayOf(q.tsSec);
    const key = `${q.deviceId}:${daySec}`;
    const row = days.get(key);
    if (row) for (let i = 0; i < q.values.length; i++) row.values[i] = row.values[i]! + (q.values[i] ?? 0);
    else days.set(key, { deviceId: q.deviceId, daySec, values: [...q.values] });
  }
  return [...days.values()];
}

import { describe, expect, it } from 'vitest';
import { Tariff, type CostPeriod } from '@meterportal/protocol';
import { fromWall } from '../history/calendar';
import { computeCost, prepareRates, roundDiv, type EnergyBucket } from './tariffs-fns';
import { workdayTariff } from './testing';

const TZ = 'Europe/Bratislava';
const at = (y: number, m: number, d: number, h = 0, min = 0) => fromWall(TZ, y, m, d, h, min);

const workday = (validFrom: string, high: number, low: number, fee: number, capacity: number) =>
  Tariff.parse(workdayTariff(validFrom, high, low, fee, capacity));

/** Day 6-22 and night otherwise, every day alike. */
const dayNight = Tariff.parse({
  validFrom: '2026-01-01',
  currency: 'EUR',
  vatPercent: 0,
  bands: [
    { name: 'Day', days: 'ALL', fromHour: 6, toHour: 22, priceKwh: 0.2 },
    { name: 'Night', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: 0.1 },
  ],
  exportPriceKwh: 0,
  monthlyFee: 0,
  capacityPriceKw: 0,
});

function cost(
  tariffs: Tariff[],
  buckets: EnergyBucket[],
  fromSec: number,
  toSec: number,
  period: CostPeriod,
  monthPeakWh = new Map<number, number>(),
) {
  const { rates, bandNames } = prepareRates(tariffs, TZ);
  return computeCost({ fromSec, toSec, period, tz: TZ, buckets, rates, bandNames, monthPeakWh });
}

const kwh = (tsSec: number, importWh = 1000, exportWh = 0): EnergyBucket => ({ tsSec, importWh, exportWh });

describe('cost of energy under tariffs', () => {
  it('splits March exactly at a change of tariff on the 16th, with fee and capacity shared by time', () => {
    const march = at(2026, 3, 1);
    const april = at(2026, 4, 1);
    const buckets = [
      kwh(at(2026, 3, 9, 12)), // Monday noon, old tariff: High 0.20
      kwh(at(2026, 3, 15, 23, 45), 1000, 500), // Sunday night, old tariff: Low 0.10; 0.5 kWh fed in
      kwh(at(2026, 3, 16, 0)), // Monday 00:00, new tariff: Low 0.12
      kwh(at(2026, 3, 16, 12)), // Monday noon, new tariff: High 0.30
    ];
    const tariffs = [workday('2026-03-16', 0.3, 0.12, 12, 6), workday('2026-03-01', 0.2, 0.1, 10, 5)];
    const { rows, total } = cost(tariffs, buckets, march, april, 'MONTH', new Map([[march, 1000]]));
    // March has 31 days less the spring-forward hour: 2,674,800 s, 1,296,000 of them (15 days)
    // under the old tariff. Fee: 10 x 1,296,000/2,674,800 + 12 x 1,378,800/2,674,800 = 11.030956;
    // capacity: 4 kW x (5 x 0.484522 + 6 x 0.515478) = 22.061911; VAT 20 % of 0.72 + both.
    expect(rows).toEqual([
      {
        t: march * 1000,
        importWh: 4000,
        exportWh: 500,
        bands: { High: 50, Low: 22 },
        energyCents: 72,
        fixedCents: 1103,
        capacityCents: 2206,
        vatCents: 676,
        exportCreditCents: 3,
        totalCents: 72 + 1103 + 2206 + 676 - 3,
      },
    ]);
    expect(total).toEqual({ ...rows[0], t: march * 1000 });
  });

  it('prices per day on each side of the change, without fees in days', () => {
    const buckets = [kwh(at(2026, 3, 15, 23, 45)), kwh(at(2026, 3, 16, 0))];
    const tariffs = [workday('2026-03-01', 0.2, 0.1, 10, 5), workday('2026-03-16', 0.3, 0.12, 12, 6)];
    const { rows } = cost(tariffs, buckets, at(2026, 3, 15), at(2026, 3, 17), 'DAY');
    expect(rows.map((r) => [r.t / 1000, r.bands, r.fixedCents, r.vatCents, r.totalCents])).toEqual([
      [at(2026, 3, 15), { High: 0, Low: 10 }, 0, 2, 12],
      [at(2026, 3, 16), { High: 0, Low: 12 }, 0, 2, 14],
    ]);
  });

  it.each([
    ['the spring-forward day (23 hours, 92 quarters)', 3, 29, 92, 28],
    ['the fall-back day (25 hours, 100 quarters)', 10, 25, 100, 36],
  ])(
    'prices %s by its local hours, per quarter and per hour alike',
    (_, month, day, quarters, nightQuarters) => {
      const from = at(2026, month, day);
      const to = at(2026, month, day + 1);
      expect((to - from) / 900).toBe(quarters);
      const perQuarter: EnergyBucket[] = [];
      for (let t = from; t < to; t += 900) perQuarter.push(kwh(t, 100));
      const perHour: EnergyBucket[] = [];
      for (let t = from; t < to; t += 3600) perHour.push(kwh(t, 400));
      // 64 day quarters of 0.1 kWh at 0.20; the night has the rest (hour 2 missing or twice) at 0.10.
      const expected = { Day: 128, Night: nightQuarters };
      for (const buckets of [perQuarter, perHour]) {
        const { rows } = cost([dayNight], buckets, from, to, 'DAY');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          importWh: quarters * 100,
          bands: expected,
          totalCents: 128 + nightQuarters,
        });
      }
    },
  );

  it('prices weekends and listed holidays by the weekend bands', () => {
    const tariffs = [workday('2026-01-01', 0.2, 0.1, 0, 0)];
    const cases = [
      [at(2026, 1, 7, 12), { High: 20, Low: 0 }], // Wednesday noon
      [at(2026, 1, 10, 12), { High: 0, Low: 10 }], // Saturday noon
      [at(2026, 1, 6, 12), { High: 0, Low: 10 }], // Tuesday, a listed holiday
      [at(2026, 1, 7, 5, 45), { High: 0, Low: 10 }], // Wednesday before six
      [at(2026, 1, 7, 21, 45), { High: 20, Low: 0 }], // Wednesday's last high quarter
    ] as const;
    for (const [t, bands] of cases) {
      const { rows } = cost(tariffs, [kwh(t)], at(2026, 1, 1), at(2026, 2, 1), 'HOUR');
      expect(rows[0]!.bands, new Date(t * 1000).toISOString()).toEqual(bands);
    }
  });

  it('rounds each figure once from its exact sum, not per quarter hour', () => {
    const cheap = Tariff.parse({ ...dayNight, bands: [{ ...dayNight.bands[1]!, priceKwh: 0.155 }] });
    // 0.155 EUR/kWh x 30 Wh = 0.465 cents a quarter; four quarters: 1.86 -> 2 cents (per quarter: 0+0+0+0).
    const buckets = [0, 1, 2, 3].map((i) => kwh(at(2026, 2, 2, 3) + i * 900, 30));
    const { rows, total } = cost([cheap], buckets, at(2026, 2, 2), at(2026, 2, 3), 'HOUR');
    expect(rows.map((r) => r.bands.Night)).toEqual([2]);
    expect(total.energyCents).toBe(2);
  });

  it('counts energy before the first tariff without pricing it', () => {
    const tariffs = [workday('2026-03-16', 0.3, 0.12, 0, 0)];
    const { total } = cost(
      tariffs,
      [kwh(at(2026, 3, 10, 12)), kwh(at(2026, 3, 16, 12))],
      at(2026, 3, 1),
      at(2026, 4, 1),
      'YEAR',
    );
    expect(total).toMatchObject({ importWh: 2000, bands: { High: 30, Low: 0 } });
  });

  it('sums the months of a year with each month’s fee', () => {
    const tariffs = [workday('2025-01-01', 0.2, 0.1, 10, 0)];
    const from = at(2026, 1, 1);
    const to = at(2027, 1, 1);
    const { rows, total } = cost(tariffs, [kwh(at(2026, 5, 5, 12))], from, to, 'YEAR');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ energyCents: 20, fixedCents: 12 * 1000, vatCents: (12 * 1000 + 20) / 5 });
    expect(total.totalCents).toBe(rows[0]!.totalCents);
  });

  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [14n, 10n, 1n],
  ])('rounds %i / %i half up to %i', (n, d, out) => {
    expect(roundDiv(n, d)).toBe(out);
  });
});

import { describe, expect, it } from 'vitest';
import { csvText, energyTable, localIso, profileTable, utcIso, wantsCsv } from './integration-fns';

const ms = (iso: string) => Date.parse(iso);

describe('integration series', () => {
  it.each([
    ['2026-03-29T00:59:00Z', 'Europe/Bratislava', '2026-03-29T01:59:00+01:00'],
    ['2026-03-29T01:00:00Z', 'Europe/Bratislava', '2026-03-29T03:00:00+02:00'],
    ['2026-10-25T00:30:00Z', 'Europe/Bratislava', '2026-10-25T02:30:00+02:00'],
    ['2026-10-25T01:30:00Z', 'Europe/Bratislava', '2026-10-25T02:30:00+01:00'],
    ['2026-06-01T12:00:00Z', 'America/St_Johns', '2026-06-01T09:30:00-02:30'],
    ['2026-06-01T12:00:00Z', 'UTC', '2026-06-01T12:00:00+00:00'],
  ])('writes %s in %s as %s', (utc, tz, local) => {
    expect(utcIso(ms(utc))).toBe(utc);
    expect(localIso(ms(utc), tz)).toBe(local);
  });

  it.each([
    [undefined, undefined, false],
    [undefined, 'application/json', false],
    [undefined, 'text/csv', true],
    [undefined, 'application/json, text/csv;q=0.9', true],
    [undefined, 'text/csvx', false],
    ['json', 'text/csv', false],
    ['csv', 'application/json', true],
  ] as const)('format %s with Accept %s answers CSV: %s', (format, accept, csv) => {
    expect(wantsCsv(format, accept)).toBe(csv);
  });

  it('merges series of different times into rows, leaving missing values empty', () => {
    const t0 = ms('2026-01-01T00:00:00Z');
    const times = Float64Array.from([t0, t0 + 60_000]);
    const table = profileTable(['P', 'F', 'E_I'], {
      P: {
        L1: { times, values: Float64Array.from([1.23456, 2]) },
        cumulative: { times, values: Float64Array.from([1.23456, 2]) },
      },
      F: { times, values: Float64Array.from([50, 50.01]) },
      E_I: {
        L1: { times: Float64Array.from([t0]), values: Float64Array.from([0.25]) },
        cumulative: { times: Float64Array.from([t0]), values: Float64Array.from([0.25]) },
      },
    });
    expect(table.columns.map((c) => `${c.name} ${c.unit}`)).toEqual([
      'P_L1 W',
      'P_total W',
      'F Hz',
      'E_I_L1 kWh',
      'E_I_total kWh',
    ]);
    expect(csvText(table, 'UTC').split('\r\n')).toEqual([
      'time_utc,time_local [UTC],P_L1 [W],P_total [W],F [Hz],E_I_L1 [kWh],E_I_total [kWh]',
      '2026-01-01T00:00:00Z,2026-01-01T00:00:00+00:00,1.235,1.235,50,0.25,0.25',
      '2026-01-01T00:01:00Z,2026-01-01T00:01:00+00:00,2,2,50.01,,',
      '',
    ]);
  });

  it('names reactive energy in kvarh and leaves out a total where phases do not add up', () => {
    const t0 = ms('2026-01-01T00:00:00Z');
    expect(energyTable({ Q1: { CUM: [[t0, 1]] } }).columns).toEqual([{ name: 'Q1', unit: 'kvarh' }]);
    const times = Float64Array.from([t0]);
    const u = profileTable(['U'], {
      U: {
        L1: { times, values: Float64Array.from([230]) },
        cumulative: { times, values: Float64Array.from([230]) },
      },
    });
    expect(u.columns).toEqual([{ name: 'U_L1', unit: 'V' }]);
  });
});

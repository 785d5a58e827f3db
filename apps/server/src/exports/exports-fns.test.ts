import { describe, expect, it } from 'vitest';
import type { CostData } from '@meterportal/protocol';
import { fromWall } from '../history/calendar';
import { costTable, exportFileName, joinTables, monthsIntoYears } from './exports-fns';
import { columnName, xmlText } from './xlsx';

const TZ = 'Europe/Bratislava';

describe('workbook text', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [51, 'AZ'],
    [52, 'BA'],
    [701, 'ZZ'],
    [702, 'AAA'],
    [16383, 'XFD'],
  ])('names column %i %s', (index, name) => {
    expect(columnName(index)).toBe(name);
  });

  it.each([
    ['a & b', 'a &amp; b'],
    ['<E_I> "kWh"', '&lt;E_I&gt; &quot;kWh&quot;'],
    ['Bratislava, Dúbravka', 'Bratislava, Dúbravka'],
    ['bell\u0007tab\tline\n', 'belltab\tline\n'],
    ['lone \ud800 half', 'lone  half'],
    ['pair \ud83d\ude00', 'pair \ud83d\ude00'],
  ])('writes %j as XML text %j', (text, xml) => {
    expect(xmlText(text)).toBe(xml);
  });
});

describe('export tables', () => {
  const a = {
    columns: [{ name: 'E_I', unit: 'kWh' }],
    rows: [
      { timeMs: 1000, values: [1] },
      { timeMs: 2000, values: [2] },
    ],
  };
  const b = {
    columns: [
      { name: 'E_I', unit: 'kWh' },
      { name: 'E_E', unit: 'kWh' },
    ],
    rows: [
      { timeMs: 2000, values: [3, 4] },
      { timeMs: 3000, values: [5, null] },
    ],
  };

  it('puts devices side by side on the union of their times, each column named by its serial', () => {
    expect(
      joinTables([
        { serial: '4D50000004', title: 'Workshop', table: a },
        { serial: '4D50000005', title: 'Office', table: b },
      ]),
    ).toEqual({
      columns: [
        { name: '4D50000004 E_I', unit: 'kWh' },
        { name: '4D50000005 E_I', unit: 'kWh' },
        { name: '4D50000005 E_E', unit: 'kWh' },
      ],
      rows: [
        { timeMs: 1000, values: [1, null, null] },
        { timeMs: 2000, values: [2, 3, 4] },
        { timeMs: 3000, values: [null, 5, null] },
      ],
    });
  });

  it('keeps the plain names of a single device', () => {
    expect(joinTables([{ serial: '4D50000004', title: 'Workshop', table: a }]).columns).toEqual(a.columns);
  });

  it('sums months into local years exact to the Wh', () => {
    const y26 = fromWall(TZ, 2026, 1, 1);
    const y27 = fromWall(TZ, 2027, 1, 1);
    const months: [number, number][] = [
      [fromWall(TZ, 2026, 11, 1) * 1000, 0.1],
      [fromWall(TZ, 2026, 12, 1) * 1000, 0.2],
      [fromWall(TZ, 2027, 1, 1) * 1000, 1.001],
    ];
    // 0.1 + 0.2 is 0.30000000000000004 in binary floating point; whole Wh add up exactly.
    expect(monthsIntoYears(months, [y26, y27])).toEqual([
      [y26 * 1000, 0.3],
      [y27 * 1000, 1.001],
    ]);
  });

  it('writes cost per band and per charge in the currency, from cents', () => {
    const row = {
      t: 5000,
      importWh: 1000,
      exportWh: 0,
      bands: { High: 50 },
      energyCents: 72,
      fixedCents: 1103,
      capacityCents: 2206,
      vatCents: 676,
      exportCreditCents: 3,
      totalCents: 4054,
    };
    const cost: CostData = { currency: 'EUR', bandNames: ['High', 'Low'], rows: [row], total: row };
    expect(costTable(cost)).toEqual({
      columns: [
        'cost_High',
        'cost_Low',
        'cost_energy',
        'cost_fixed',
        'cost_capacity',
        'cost_vat',
        'export_credit',
        'cost_total',
      ].map((name) => ({ name, unit: 'EUR' })),
      rows: [{ timeMs: 5000, values: [0.5, 0, 0.72, 11.03, 22.06, 6.76, 0.03, 40.54] }],
    });
  });

  it.each([
    [[{ serial: '4D50000004', title: 'Workshop' }], 'csv', '4D50000004-energy-hour-2026-03-29.csv'],
    [
      [
        { serial: '4D50000004', title: 'Workshop' },
        { serial: '4D50000005', title: 'Office' },
      ],
      'xlsx',
      '2-devices-energy-hour-2026-03-29.xlsx',
    ],
  ] as const)(
    'names the file after its devices, series, period and local start date',
    (devices, ext, name) => {
      // 23:30 UTC on 28 March is already the 29th in Bratislava.
      const fromSec = Date.parse('2026-03-28T23:30:00Z') / 1000;
      expect(
        exportFileName(
          { tz: TZ, series: 'ENERGY', step: 'HOUR', fromSec, toSec: fromSec + 3600, devices },
          ext,
        ),
      ).toBe(name);
    },
  );
});

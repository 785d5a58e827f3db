import { describe, expect, it } from 'vitest';
import { dashboardTables, isDataOf, isDeviceOnline } from './dashboardRows';

const phases = (l1: number, l2: number, l3: number) => ({ L1: l1, L2: l2, L3: l3 });
const message = {
  status: 'OK',
  topic: 'Data',
  mac: '02-4D-50-00-00-03',
  data: {
    ts: 1_700_000_000,
    U: phases(230.1234, 231, 229.5),
    I: phases(5, 6, 7),
    F_U: phases(0, 240, 120),
    F_I: phases(350, 230, 110),
    PF: phases(0.98, 0.97, 0.96),
    P: phases(1000, 1100, 1200),
    Q: phases(100, -50, 0),
    S: phases(1005, 1101, 1201),
    DF_U: phases(1.5, 1.6, 1.7),
    DF_I: phases(10, 11, 12),
    U_PP: phases(400, 401, 399),
    F_UPP: phases(30, 270, 150),
    E_I: phases(1_234_567, 2_000, 500),
    Q_E: phases(1000, 2000, 3000),
    S_E: phases(3000, 4000, 5000),
  },
};

describe('dashboard tables', () => {
  it('lists load, more and energy values in the seed order with their units', () => {
    const t = dashboardTables(message);
    expect(t.load.map((r) => [r.key, r.unit])).toEqual([
      ['U', 'V'],
      ['I', 'A'],
      ['F_U', '°'],
      ['F_I', '°'],
      ['PF', ''],
      ['P', 'W'],
      ['Q', 'var'],
      ['S', 'VA'],
    ]);
    expect(t.more.map((r) => [r.key, r.unit])).toEqual([
      ['DF_U', '%'],
      ['DF_I', '%'],
      ['U_PP', 'V'],
      ['F_UPP', '°'],
    ]);
    expect(t.energy.map((r) => [r.key, r.unit])).toEqual([
      ['E_I', 'kWh'],
      ['Q_E', 'kvarh'],
      ['S_E', 'kVAh'],
    ]);
    expect(t.load[0]!.values).toEqual({ L1: 230.1234, L2: 231, L3: 229.5 });
    expect(t.more[3]!.values).toEqual({ L1: 30, L2: 270, L3: 150 });
  });

  it('divides energies by 1000 and sums the phases', () => {
    const [active, reactive] = dashboardTables(message).energy;
    expect(active!.values).toEqual({ L1: 1234.567, L2: 2, L3: 0.5 });
    expect(active!.sum).toBeCloseTo(1237.067, 9);
    expect(reactive!.sum).toBe(6);
  });

  it('leaves missing quantities and phases empty, and no SUM over a missing phase', () => {
    const t = dashboardTables({
      topic: 'Data',
      data: { U: { L1: 230, L2: 'x' }, E_I: { L1: 1000, L2: 2000 } },
    });
    expect(t.load[0]!.values).toEqual({ L1: 230, L2: null, L3: null });
    expect(t.load[1]!.values).toEqual({ L1: null, L2: null, L3: null });
    expect(t.energy[0]!.sum).toBeNull();
    expect(dashboardTables(null).load[0]!.values.L1).toBeNull();
  });

  it('shows values only while the device is ONLINE', () => {
    expect(isDeviceOnline({ status: 'ONLINE' })).toBe(true);
    expect(isDeviceOnline({ status: 'OFFLINE' })).toBe(false);
    expect(isDeviceOnline({ status: 'DIFFERENT USERNAME' })).toBe(false);
    expect(isDeviceOnline(undefined)).toBe(false);
  });

  it('takes only Data frames of the selected device', () => {
    expect(isDataOf(message, '02-4D-50-00-00-03')).toBe(true);
    expect(isDataOf(message, '02-4D-50-00-00-01')).toBe(false);
    expect(isDataOf({ ...message, topic: 'Upgrade' }, '02-4D-50-00-00-03')).toBe(false);
  });
});

describe('dashboard totals, frequency and angles', () => {
  it('totals active, reactive and apparent power and leaves the others without a total', () => {
    const t = dashboardTables({ ...message, data: { ...message.data, F: 50.012 } });
    const byKey = Object.fromEntries(t.load.map((r) => [r.key, r]));
    expect(byKey.P!.sum).toBe(3300);
    expect(byKey.Q!.sum).toBe(50);
    expect(byKey.S!.sum).toBe(3307);
    expect(byKey.U!.sum).toBeUndefined();
    expect(t.frequency).toBe(50.012);
    expect(dashboardTables(message).frequency).toBeNull();
  });

  it('writes reactive power and energy as var and kvarh', () => {
    const t = dashboardTables(message);
    expect(t.load.find((r) => r.key === 'Q')!.unit).toBe('var');
    expect(t.energy.find((r) => r.key === 'Q_E')!.unit).toBe('kvarh');
  });

  it('reads angles 0 to 360 degrees, as the vector diagram does', () => {
    const t = dashboardTables({ ...message, data: { ...message.data, F_U: phases(0, -119.89, 120.3) } });
    const fu = t.load.find((r) => r.key === 'F_U')!.values;
    expect(fu.L2).toBeCloseTo(240.11, 9);
    expect(fu.L3).toBe(120.3);
  });
});

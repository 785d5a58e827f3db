import { describe, expect, it } from 'vitest';
import { applianceFigures, parseImprint, roundWh, sameName } from './appliances-fns';

const ev = (name: string, timestamp: number, event: string, runtime: number, wh: number) =>
  JSON.stringify({ timestamp, event, name, phase: 'L2', runtime, energy_consumption_wh: wh });

describe('appliance figures from NILM events', () => {
  it('counts OFF events inside [from, to) with their runtime and energy, per name', () => {
    const f = applianceFigures(
      [
        ev('Oven', 100, 'ON', 0, 0),
        ev('Oven', 200, 'OFF', 100, 63.9),
        ev('Oven', 300, 'OFF', 50, 31.95),
        ev('Oven', 400, 'OFF', 10, 5),
        ev('Oven', 99, 'OFF', 10, 5),
        ev('Kettle', 250, 'OFF', 120, 66.7),
        'not json',
        JSON.stringify({ timestamp: 'x' }),
      ],
      100,
      400,
    );
    expect(f.get('Oven')).toEqual({ runs: 2, runtimeSec: 150, energyWh: 95.9, lastRunMs: 300, phase: 'L2' });
    expect(f.get('Kettle')).toMatchObject({ runs: 1, energyWh: 66.7 });
    expect(f.get('Toaster')).toEqual({ runs: 0, runtimeSec: 0, energyWh: 0, lastRunMs: null, phase: null });
  });

  it.each([
    [0.05, 0.1],
    [133.24, 133.2],
    [1041.25, 1041.3],
  ])('rounds %s Wh to %s', (wh, shown) => {
    expect(roundWh(wh)).toBe(shown);
  });

  it('reads a stored imprint, and none from nothing or garbage', () => {
    expect(parseImprint('[{"phase":"L1","deltaW":5}]')).toEqual([{ phase: 'L1', deltaW: 5 }]);
    expect(parseImprint(null)).toBeNull();
    expect(parseImprint('{')).toBeNull();
    expect(parseImprint('{"a":1}')).toBeNull();
  });

  it('compares names as a person reads them', () => {
    expect(sameName(' Kettle ', 'kettle')).toBe(true);
    expect(sameName('Kettle', 'Kettle 2')).toBe(false);
  });
});

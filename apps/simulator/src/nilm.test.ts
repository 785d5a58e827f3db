import { describe, expect, it } from 'vitest';
import { createNilm, type TeachScene } from './nilm';

describe('NILM of a simulated household meter', () => {
  it.each([
    ['TWO', 2, true],
    ['MORE', 3, false],
    ['LESS', 1, false],
    ['NONE', 0, false],
  ] as const)('reports what it saw in scene %s: %i edges, a run only when learned', (scene, edges, run) => {
    const nilm = createNilm(7, (): TeachScene => scene);
    nilm.startTeaching('Kettle', 1000);
    const seen = nilm.stopTeaching('Kettle', 1030);
    expect(seen?.edges).toHaveLength(edges);
    expect(seen?.run !== null).toBe(run);
    expect(nilm.isTaught('Kettle')).toBe(run);
  });

  it('gives the same appliance the same power and phase, on and off alike', () => {
    const a = createNilm(7);
    const b = createNilm(7);
    a.startTeaching('Oven', 0);
    b.startTeaching('Oven', 0);
    const ea = a.stopTeaching('Oven', 60)!.edges;
    expect(b.stopTeaching('Oven', 60)!.edges).toEqual(ea);
    expect(ea[0]!.deltaW).toBeGreaterThan(0);
    expect(ea[1]).toEqual({ phase: ea[0]!.phase, deltaW: -ea[0]!.deltaW });
  });

  it('answers nothing when it was not listening for that name', () => {
    const nilm = createNilm(7);
    expect(nilm.stopTeaching('Kettle', 10)).toBeNull();
    nilm.startTeaching('Kettle', 0);
    expect(nilm.stopTeaching('Toaster', 10)).toBeNull();
    expect(nilm.stopTeaching('Kettle', 10)).not.toBeNull();
    expect(nilm.stopTeaching('Kettle', 11)).toBeNull();
  });

  it('stops reporting a forgotten appliance, and every appliance with processing off', () => {
    const nilm = createNilm(7);
    expect(nilm.reports('Fridge')).toBe(true);
    nilm.forget('Fridge', true);
    expect(nilm.reports('Fridge')).toBe(true);
    nilm.forget('Fridge', false);
    expect(nilm.reports('Fridge')).toBe(false);
    nilm.startTeaching('Fridge', 0);
    expect(nilm.reports('Fridge')).toBe(true);
    nilm.settings.process = false;
    expect(nilm.reports('Kettle')).toBe(false);
  });
});

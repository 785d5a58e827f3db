import { describe, expect, it } from 'vitest';
import type { UpgradeEntry } from '@meterportal/protocol';
import { imageProblem, isRunning, versionsFor, withLiveStep } from './upgradeRules';

const entry = (over: Partial<UpgradeEntry>): UpgradeEntry => ({
  id: 1,
  state: 'UPGRADING',
  progress: 40,
  fromFw: '1.0.0',
  toFw: '2.0.0',
  fwAfter: null,
  login: 'demo',
  startedAtMs: 0,
  updatedAtMs: 0,
  finishedAtMs: null,
  ...over,
});

describe('firmware upgrade rules', () => {
  it.each([
    [{ name: 'fw.bin', size: 10 }, null],
    [{ name: 'FW.HEX', size: 10 }, null],
    [{ name: 'photo.png', size: 10 }, 'firmware.file_format'],
    [{ name: 'fw.bin', size: 2_000_001 }, 'firmware.file_too_large'],
    [{ name: 'fw.bin', size: 0 }, 'firmware.file_too_large'],
  ])('judges the image %o as %s', (file, problem) => {
    expect(imageProblem(file)).toBe(problem);
  });

  it('offers the versions of the device type other than the one it runs', () => {
    const v = (deviceType: number, version: string) => ({
      id: 1,
      deviceType,
      version,
      imageName: null,
      sizeBytes: null,
      sha256: null,
      createdAtMs: 0,
    });
    expect(
      versionsFor([v(2, '1.0.0'), v(2, '2.0.0'), v(4, '3.0.0')], 2, '1.0.0').map((x) => x.version),
    ).toEqual(['2.0.0']);
  });

  it('tells running states from outcomes', () => {
    expect(isRunning('REBOOTING')).toBe(true);
    expect(isRunning('TIMEOUT')).toBe(false);
  });

  it('applies a live step to the running upgrade of the same version only', () => {
    const live = { state: 'UPGRADING' as const, progress: 80, fw: '2.0.0' };
    expect(withLiveStep(entry({}), live)).toEqual({ state: 'UPGRADING', progress: 80, toFw: '2.0.0' });
    expect(withLiveStep(entry({ state: 'DONE', progress: 100 }), live)).toEqual({
      state: 'DONE',
      progress: 100,
      toFw: '2.0.0',
    });
    expect(withLiveStep(entry({ toFw: '3.0.0' }), live)?.progress).toBe(40);
    expect(withLiveStep(undefined, undefined)).toBeNull();
  });
});

import { unixSec } from '@meterportal/protocol';
import type { DeviceListEntry } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import {
  initialSelection,
  resolveSelected,
  selectDevice,
  selectedMacStore,
  selectionAfterRemoval,
  selectUnlessChosen,
} from './selection';

const dev = (mac: string, type = 3): DeviceListEntry => ({
  owner: true,
  mac,
  type,
  token: `t|1`,
  expire: unixSec(1),
  title: mac,
});

describe('selected device', () => {
  const list = [dev('02-00-00-00-00-09'), dev('02-00-00-00-00-01', 1), dev('02-00-00-00-00-05')];
  it('keeps the remembered device while it is assigned', () => {
    expect(resolveSelected(list, '02-00-00-00-00-05')?.mac).toBe('02-00-00-00-00-05');
  });
  it('falls back to the first device by mac', () => {
    expect(resolveSelected(list, 'gone')?.mac).toBe('02-00-00-00-00-01');
    expect(resolveSelected(list, null)?.mac).toBe('02-00-00-00-00-01');
    expect(resolveSelected([], null)).toBeUndefined();
  });
});

describe('device selected after sign-in', () => {
  const list = [dev('02-00-00-00-00-01', 1), dev('02-00-00-00-00-02', 2), dev('02-00-00-00-00-03')];
  const tree = ['02-00-00-00-00-02', '02-00-00-00-00-03', '02-00-00-00-00-01'];
  const withData =
    (...macs: string[]) =>
    (d: DeviceListEntry) =>
      Promise.resolve(macs.includes(d.mac));

  it('is the last one used while it is assigned', async () => {
    expect(await initialSelection(list, tree, '02-00-00-00-00-01', withData())).toBe('02-00-00-00-00-01');
  });
  it('else the first in the tree that has data', async () => {
    expect(
      await initialSelection(list, tree, 'gone', withData('02-00-00-00-00-01', '02-00-00-00-00-03')),
    ).toBe('02-00-00-00-00-03');
    expect(await initialSelection(list, tree, null, withData('02-00-00-00-00-02'))).toBe('02-00-00-00-00-02');
  });
  it('treats a failed check as no data, and falls back to the first by mac', async () => {
    const failing = () => Promise.reject(new Error('offline'));
    expect(await initialSelection(list, tree, null, failing)).toBe('02-00-00-00-00-01');
    expect(await initialSelection([], [], null, withData())).toBeUndefined();
  });
});

describe('selection after a device is removed', () => {
  const list = [dev('02-00-00-00-00-01', 1), dev('02-00-00-00-00-02', 2), dev('02-00-00-00-00-03')];
  it('keeps the selected device when another one is removed', () => {
    expect(selectionAfterRemoval(list, '02-00-00-00-00-03', '02-00-00-00-00-02', '02-00-00-00-00-01')).toBe(
      '02-00-00-00-00-03',
    );
    // Also when nothing was picked yet and the shown device is the fallback.
    expect(selectionAfterRemoval(list, null, '02-00-00-00-00-03', '02-00-00-00-00-02')).toBe(
      '02-00-00-00-00-01',
    );
  });
  it('selects the first remaining leaf when the selected device is removed', () => {
    expect(selectionAfterRemoval(list, '02-00-00-00-00-03', '02-00-00-00-00-03', '02-00-00-00-00-02')).toBe(
      '02-00-00-00-00-02',
    );
    expect(selectionAfterRemoval(list.slice(0, 1), null, '02-00-00-00-00-01', undefined)).toBeNull();
  });
});

describe('selection worked out by a tree load', () => {
  const A = '02-00-00-00-00-0A';
  const B = '02-00-00-00-00-0B';
  const C = '02-00-00-00-00-0C';

  it('applies when nobody chose meanwhile', async () => {
    selectDevice(A);
    await selectUnlessChosen(A, () => Promise.resolve(C));
    expect(selectedMacStore.get()).toBe(C);
  });

  it('never takes back a device chosen while the load worked it out', async () => {
    selectDevice(A);
    let finish: (mac: string) => void = () => undefined;
    const done = selectUnlessChosen(A, () => new Promise<string>((r) => (finish = r)));
    await Promise.resolve();
    selectDevice(B);
    finish(A);
    await done;
    expect(selectedMacStore.get()).toBe(B);
  });

  it('does not ask the server when a device was chosen before the tree arrived', async () => {
    selectDevice(A);
    const startedWith = selectedMacStore.get();
    selectDevice(B);
    let asked = false;
    await selectUnlessChosen(startedWith, () => {
      asked = true;
      return Promise.resolve(C);
    });
    expect(asked).toBe(false);
    expect(selectedMacStore.get()).toBe(B);
  });
});

import { describe, expect, it } from 'vitest';
import { serialFromMac } from '@meterportal/protocol';
import { toDeviceListEntry } from './devices.service';
import type { AssignedDevice } from './devices.repository';

const row = (type: number): AssignedDevice => ({
  id: 1,
  mac: '02-4D-50-00-00-01',
  type,
  title: 'T',
  description: 'WS',
  phase_use: 3,
  lora: 1,
  nilm_process: 1,
  nilm_autolearn: 0,
  fw: null,
  created_at_ms: 0,
  family: 'portal',
  family_topic: null,
  family_tz: null,
  family_mapping: null,
  owner: 1,
  life_time_sec: 99,
});

describe('device list entry per type (seed 000 section 3)', () => {
  it.each([
    [1, ['NILM', 'expire', 'lora', 'mac', 'owner', 'phase_use', 'title', 'token', 'type']],
    [2, ['expire', 'mac', 'owner', 'title', 'token', 'type']],
    [3, ['description', 'expire', 'mac', 'owner', 'phase_use', 'title', 'token', 'type']],
    [4, ['description', 'expire', 'mac', 'owner', 'phase_use', 'title', 'token', 'type']],
    [5, ['expire', 'mac', 'owner', 'title', 'token', 'type']],
    [6, ['description', 'expire', 'mac', 'owner', 'phase_use', 'title', 'token', 'type']],
  ])('type %i carries %j', (type, keys) => {
    expect(Object.keys(toDeviceListEntry(row(type), 'x|99')).sort()).toEqual(keys);
  });

  it('maps NILM flags and lora to booleans', () => {
    expect(toDeviceListEntry(row(1), 'x|99')).toMatchObject({
      NILM: { process: true, autoLearn: false },
      lora: true,
      owner: true,
    });
  });
});

describe('serialFromMac', () => {
  it.each([
    ['02-4D-50-00-00-01', '4D50000001'],
    ['EM-4D-50-00-00-01', '4D50000001'],
    ['PR-02-4D-50-00-00-01', 'PR024D50000001'],
  ])('%s -> %s', (mac, serial) => {
    expect(serialFromMac(mac)).toBe(serial);
  });
});

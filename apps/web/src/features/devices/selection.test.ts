import type { DeviceListEntry } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import { resolveSelected } from './selection';

const dev = (mac: string, type = 3): DeviceListEntry => ({
  owner: true,
  mac,
  type,
  token: `t|1`,
  expire: 1,
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

import type { MeterRow } from '@meterportal/protocol';
import { describe, expect, it, test } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  canUseDeviceDatabase,
  isDeviceDatabaseBusy,
  editedMeter,
  fromCell,
  rowToInput,
  searchMeters,
  sortByTime,
  toCell,
} from './meterRules';

function row(over: Partial<MeterRow>): MeterRow {
  return {
    ID_meter: 1,
    IDN: '1',
    CRC: 'ABCD',
    LPCOUNT: 0,
    MTIME: 1_700_000_000,
    SNUM: '40012345',
    TYPE: 'E350',
    CONSTANT: '1000',
    PRODUCER: 'Landis+Gyr',
    CLASS: '1',
    YMAN: '2019',
    VOLTAGE: '',
    CURRENT: '',
    CONTYPE: 0,
    ELM_OUTPUT_TYPE: 0,
    MENERGYTYPE: 0,
    CONSTUNIT: 0,
    CONSTTYPE: 0,
    CTRATIO: '1',
    VTRATIO: '1',
    CTSNOM: '1',
    VTSNOM: '1',
    IMIN: '',
    INOM: '',
    IMAX: '',
    UNOM: '',
    ISIDE: '',
    USIDE: '',
    FREQ: '50',
    ENERMETHOD: 0,
    CUSTOMER: '',
    AREA: '',
    LOCATION: '',
    ADDRESS: '',
    NOTE1: '',
    NOTE2: '',
    NOTE3: '',
    NOTE4: '',
    SCALEFACTOR: '',
    SQRT3: '',
    DIALREG: '',
    ...over,
  };
}

describe('meter list rules', () => {
  it('offers page sizes 5 to 100 and starts with 5', () => {
    expect(PAGE_SIZES).toEqual([5, 10, 25, 50, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(5);
  });

  test.each([
    ['', '-'],
    ['  ', '-'],
    [undefined, '-'],
    [null, '-'],
    ['Cellar', 'Cellar'],
    [0, '0'],
  ])('shows %j as %j', (value, shown) => {
    expect(toCell(value)).toBe(shown);
  });

  test.each([
    ['-', ''],
    [' - ', ''],
    ['', ''],
    ['Cellar', 'Cellar'],
    ['-5', '-5'],
  ])('sends the cell text %j back as %j', (text, sent) => {
    expect(fromCell(text)).toBe(sent);
  });

  it('sorts by time, newest first', () => {
    const rows = [
      row({ ID_meter: 1, MTIME: 10 }),
      row({ ID_meter: 2, MTIME: 30 }),
      row({ ID_meter: 3, MTIME: 20 }),
    ];
    expect(sortByTime(rows).map((r) => r.ID_meter)).toEqual([2, 3, 1]);
  });

  it('builds the whole meter for PUT without the portal keys', () => {
    const input = rowToInput(row({ CUSTOMER: '-', CONTYPE: 2 }));
    expect(input).not.toHaveProperty('ID_meter');
    expect(input).not.toHaveProperty('MTIME');
    expect(input).not.toHaveProperty('CRC');
    expect(input.CUSTOMER).toBe('');
    expect(input.CONTYPE).toBe(2);
    expect(input.SNUM).toBe('40012345');
  });

  it('replaces one field and sends a dash as empty', () => {
    const a = editedMeter(row({ LOCATION: 'Cellar' }), 'LOCATION', '-');
    expect(a).toEqual({ ok: true, meter: expect.objectContaining({ LOCATION: '', SNUM: '40012345' }) });
    const b = editedMeter(row({}), 'CONTYPE', 3);
    expect(b.ok && b.meter.CONTYPE).toBe(3);
  });

  test.each([
    ['SNUM', '-'],
    ['SNUM', '123456789012345678901'],
    ['CONSTANT', '1,5'],
    ['YMAN', '2200'],
    ['FREQ', '-50'],
    ['CUSTOMER', 'x'.repeat(41)],
  ] as const)('refuses an edit of %s to %j', (field, value) => {
    expect(editedMeter(row({}), field, value).ok).toBe(false);
  });

  describe('search', () => {
    const rows = [
      row({ ID_meter: 1, SNUM: '40012345', PRODUCER: 'Landis+Gyr', CUSTOMER: 'Bakery Novak' }),
      row({ ID_meter: 2, SNUM: '71100042', PRODUCER: 'Iskra', CUSTOMER: 'School Hall', TYPE: 'MT174' }),
      row({ ID_meter: 3, SNUM: '55500011', PRODUCER: 'Elster', LOCATION: 'Switchboard 2' }),
    ];
    const ids = (q: string) => searchMeters(rows, q).map((r) => r.ID_meter);

    it('finds by producer, customer, serial number, type and location', () => {
      expect(ids('Iskra')).toEqual([2]);
      expect(ids('Bakery')).toEqual([1]);
      expect(ids('40012345')).toEqual([1]);
      expect(ids('MT174')).toEqual([2]);
      expect(ids('Switchboard')).toEqual([3]);
    });

    it('is fuzzy: a typo still finds the meter', () => {
      expect(ids('Iskar')).toContain(2);
      expect(ids('Bakrey Novak')).toContain(1);
    });

    it('does not match unrelated text', () => {
      expect(ids('zzqqxx')).toEqual([]);
    });

    it('keeps every row for an empty or one-character query', () => {
      expect(ids('')).toEqual([1, 2, 3]);
      expect(ids('I')).toEqual([1, 2, 3]);
    });
  });

  test.each([
    [{ status: 'ONLINE', connection: 'BT_MQTT' }, true],
    [{ status: 'ONLINE', connection: 'BT_MQTT_DB' }, false],
    [{ status: 'ONLINE', connection: 'WIFI' }, false],
    [{ status: 'OFFLINE', connection: 'BT_MQTT' }, false],
    [{ status: 'DIFFERENT USERNAME', connection: 'BT_MQTT' }, false],
    [{}, false],
    [undefined, false],
  ])('device database actions for %j: %s', (runtime, enabled) => {
    expect(canUseDeviceDatabase(runtime)).toBe(enabled);
  });
});

describe('device busy', () => {
  it('is busy only while the device reports DATABASE_UPDATE', () => {
    expect(isDeviceDatabaseBusy({ status: 'DATABASE_UPDATE' })).toBe(true);
    expect(isDeviceDatabaseBusy({ status: 'ONLINE' })).toBe(false);
    expect(isDeviceDatabaseBusy(undefined)).toBe(false);
  });
});

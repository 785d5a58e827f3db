import type { DeviceConnectionSettings } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import { isIdentifier, normalizeIdentifier, settingsRows, usesLocalTime } from './registrationRules';

const settings = (over: Partial<DeviceConnectionSettings>): DeviceConnectionSettings => ({
  mac: 'A8-03-2A-BE-54-DC',
  family: 'shelly',
  topic: 'board',
  host: 'portal.example',
  port: 1883,
  clientId: 'meter-A8-03-2A-BE-54-DC',
  username: 'A8-03-2A-BE-54-DC',
  password: 'secret',
  publishTopic: 'board/',
  command: null,
  ...over,
});

describe('registration rules', () => {
  it.each([
    ['A8:03:2A:BE:54:DC', 'A8-03-2A-BE-54-DC'],
    ['a8032abe54dc', 'A8-03-2A-BE-54-DC'],
    [' a8-03-2a-be-54-dc ', 'A8-03-2A-BE-54-DC'],
    ['4D50-02-00-00-00-01', '4D50-02-00-00-00-01'],
    ['board', 'BOARD'],
  ])('writes %s as %s', (input, dashed) => {
    expect(normalizeIdentifier(input)).toBe(dashed);
  });

  it.each([
    ['A8:03:2A:BE:54:DC', true],
    ['4D50-02-00-00-00-01', true],
    ['A8:03:2A:BE:54', false],
    ['shelly', false],
    ['', false],
  ])('takes %s as an identifier: %s', (input, ok) => {
    expect(isIdentifier(input)).toBe(ok);
  });

  it('offers a zone only to the families whose clocks run in local time', () => {
    expect(['portal', 'shelly', 'tasmota', 'p1'].filter((f) => usesLocalTime(f as never))).toEqual([
      'tasmota',
      'p1',
    ]);
  });

  it("lists a Shelly's MQTT page fields with host and port in one, and the prefix", () => {
    expect(settingsRows(settings({})).map((r) => [r.key, r.value])).toEqual([
      ['enable', 'on'],
      ['server', 'portal.example:1883'],
      ['client_id', 'meter-A8-03-2A-BE-54-DC'],
      ['username', 'A8-03-2A-BE-54-DC'],
      ['password', 'secret'],
      ['prefix', 'board'],
      ['rpc_notifications', 'on'],
      ['generic_status', 'on'],
    ]);
  });

  it('gives a P1 bridge its full topic and a Tasmota its own topic', () => {
    const p1 = settingsRows(settings({ family: 'p1', topic: 'house', publishTopic: 'p1/house' }));
    expect(p1.find((r) => r.key === 'topic')?.value).toBe('p1/house');
    expect(p1.find((r) => r.key === 'port')?.value).toBe('1883');
    const tasmota = settingsRows(settings({ family: 'tasmota', topic: 'plug', publishTopic: 'tele/plug/' }));
    expect(tasmota.find((r) => r.key === 'topic')?.value).toBe('plug');
  });
});

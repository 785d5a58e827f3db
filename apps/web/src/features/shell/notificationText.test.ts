import { unixMs } from '@meterportal/protocol';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { sk } from '../../i18n/sk';
import { mergeNotifications, notificationText, notificationTimeMs, type BellEntry } from './notificationText';

let t: Record<'en' | 'sk' | 'de', TFunction>;

beforeAll(async () => {
  const i = i18next.createInstance();
  await i.init({
    resources: { en: { translation: en }, sk: { translation: sk }, de: { translation: de } },
    lng: 'en',
  });
  t = { en: i.getFixedT('en'), sk: i.getFixedT('sk'), de: i.getFixedT('de') };
});

const entry = (type: BellEntry['type'], data: Partial<BellEntry['data']>, id = 1): BellEntry => ({
  id,
  type,
  mac: '02-4D-50-00-00-01',
  data: { timestamp: unixMs(0), ...data },
});

describe('notificationText', () => {
  it.each<[string, BellEntry, string, string, string]>([
    [
      'a device coming online',
      entry('STATUS', { event: 'ONLINE', message: 'Device is ONLINE' }),
      'Device is online',
      'Zariadenie je online',
      'Gerät ist online',
    ],
    [
      'a relay opened by overload',
      entry('DISCONNECTOR', { event: 'OPEN', message: 'OVERLOAD' }),
      'Relay opened · overload',
      'Relé rozopnuté · preťaženie',
      'Relais geöffnet · Überlast',
    ],
    [
      'an appliance on a phase',
      entry('NILM', { event: 'ON', name: 'Kettle', phase: 'L2' }),
      'Kettle switched on · phase L2',
      'Kettle zapnutý · fáza L2',
      'Kettle eingeschaltet · Phase L2',
    ],
    [
      'an anomaly',
      entry('ANOMALY', { message: 'z-score 4.2' }),
      'Unusual consumption',
      'Nezvyčajná spotreba',
      'Ungewöhnlicher Verbrauch',
    ],
    [
      'an alarm raised by a rule',
      entry('STATUS', { event: 'ALARM_RAISED', name: 'Low voltage', message: 'Alarm raised (warning)' }),
      'Alarm: Low voltage',
      'Alarm: Low voltage',
      'Alarm: Low voltage',
    ],
    [
      'an alarm cleared',
      entry('STATUS', { event: 'ALARM_CLEARED', name: 'Low voltage' }),
      'Alarm cleared: Low voltage',
      'Alarm zanikol: Low voltage',
      'Alarm aufgehoben: Low voltage',
    ],
    [
      'an unknown status code',
      entry('STATUS', { event: 'REBOOT' }),
      'Device status changed',
      'Stav zariadenia sa zmenil',
      'Gerätestatus geändert',
    ],
  ])('says %s in EN, SK and DE', (_what, n, enText, skText, deText) => {
    expect(notificationText(t.en, n)).toBe(enText);
    expect(notificationText(t.sk, n)).toBe(skText);
    expect(notificationText(t.de, n)).toBe(deText);
  });
});

describe('mergeNotifications', () => {
  it('keeps each entry once, newest id first, at most five', () => {
    const stored = [7, 6, 5, 4, 3].map((id) => entry('STATUS', { timestamp: unixMs(id) }, id));
    const live = [entry('STATUS', { timestamp: unixMs(9) }, 9), entry('STATUS', { timestamp: unixMs(7) }, 7)];
    expect(mergeNotifications(live, stored, 5).map((n) => n.id)).toEqual([9, 7, 6, 5, 4]);
  });
});

describe('notificationTimeMs', () => {
  it.each([
    [0, undefined],
    [1_790_000_000_000, 1_790_000_000_000],
    [undefined, undefined],
  ])('reads %j as %j ms', (ts, ms) => {
    expect(notificationTimeMs(ts)).toBe(ms);
  });
});

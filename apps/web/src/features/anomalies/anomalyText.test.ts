import { unixMs } from '@meterportal/protocol';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { sk } from '../../i18n/sk';
import { notificationText } from '../shell/notificationText';

let t: Record<'en' | 'sk' | 'de', TFunction>;

beforeAll(async () => {
  const i = i18next.createInstance();
  await i.init({
    resources: { en: { translation: en }, sk: { translation: sk }, de: { translation: de } },
    lng: 'en',
  });
  t = { en: i.getFixedT('en'), sk: i.getFixedT('sk'), de: i.getFixedT('de') };
});

const started = {
  type: 'ANOMALY' as const,
  data: {
    timestamp: unixMs(0),
    event: 'ANOMALY_STARTED',
    energy_consumption_wh: 9369,
    expected_low_wh: 777,
    expected_high_wh: 1988,
  },
};

describe('anomaly notifications in words', () => {
  it('say what was seen and what was expected', () => {
    expect(notificationText(t.en, started)).toBe(
      'Unusual consumption: 9.369 kWh seen, 0.777 to 1.988 kWh expected',
    );
    expect(notificationText(t.de, started)).toMatch(/^Ungewöhnlicher Verbrauch: .+ kWh gemessen/);
  });

  it.each([
    ['en', 'Consumption back in the expected band'],
    ['sk', 'Spotreba je opäť v očakávanom pásme'],
    ['de', 'Verbrauch wieder im erwarteten Band'],
  ] as const)('say in %s when it ended', (lang, text) => {
    expect(
      notificationText(t[lang], { type: 'ANOMALY', data: { timestamp: unixMs(0), event: 'ANOMALY_ENDED' } }),
    ).toBe(text);
  });

  it('keep the plain phrase for an anomaly without an event', () => {
    expect(notificationText(t.en, { type: 'ANOMALY', data: { timestamp: unixMs(0) } })).toBe(
      'Unusual consumption',
    );
  });
});

import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { Tariff } from '@meterportal/protocol';
import { tariffProblemText } from './tariffProblems';
import { enCosts } from '../../i18n/en.costs';
import { skCosts } from '../../i18n/sk.costs';

const t = i18next.getFixedT('sk');
const base = {
  validFrom: '2026-01-01',
  currency: 'EUR',
  vatPercent: 20,
  bands: [{ name: 'High', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: 0.2 }],
  holidays: [],
  exportPriceKwh: 0.05,
  monthlyFee: 3,
  capacityPriceKw: 1,
};

/** The Slovak text of the first problem the protocol finds in a tariff. */
function problem(tariff: unknown): string {
  const parsed = Tariff.safeParse(tariff);
  if (parsed.success) throw new Error('expected a problem');
  const holidays = (tariff as { holidays?: string[] }).holidays ?? [];
  return tariffProblemText(t, parsed.error.issues[0]!.path, holidays);
}

describe('tariff problems in the user language', () => {
  beforeAll(async () => {
    await i18next.init({
      lng: 'sk',
      resources: { en: { translation: enCosts }, sk: { translation: skCosts } },
      interpolation: { escapeValue: false },
    });
  });

  it('says which band and what is wrong, never the protocol English', () => {
    expect(problem({ ...base, bands: [{ ...base.bands[0], fromHour: 0, toHour: 12 }] })).toBe(
      'Pásma musia pokryť každú hodinu pracovných dní aj víkendov.',
    );
    expect(problem({ ...base, bands: [{ ...base.bands[0], fromHour: 10, toHour: 5 }] })).toBe(
      'Pásmo 1: koncová hodina musí byť po začiatočnej.',
    );
    expect(problem({ ...base, bands: [{ ...base.bands[0], name: 'a<b' }] })).toMatch(/^Pásmo 1: /);
    expect(problem({ ...base, holidays: ['2026-02-30'] })).toBe(
      'Sviatok 2026-02-30 nie je dátum z rokov 2000 až 2100 (RRRR-MM-DD).',
    );
    expect(problem({ ...base, monthlyFee: 1.234 })).toBe(
      'Skontrolujte „Pevný mesačný poplatok“: číslo od 0 s najviac 2 desatinnými miestami.',
    );
  });
});

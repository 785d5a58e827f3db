import type { enPowerQuality } from './en.powerQuality';
import type { Translation } from './en';

/** Slovak texts of the EN 50160 power-quality page of the analyzers. */
export const skPowerQuality: Pick<Translation, keyof typeof enPowerQuality> = {
  power_quality: {
    title: 'Kvalita elektriny (EN 50160)',
    week: 'Týždeň',
    previous_week: 'Predchádzajúci týždeň',
    next_week: 'Nasledujúci týždeň',
    week_option: '{{from}} – {{to}}',
    week_verdict: 'Výsledok týždňa',
    criterion: 'Kritérium',
    result: 'Výsledok',
    required: 'Požadované',
    achieved: 'Dosiahnuté',
    worst: 'Najhoršie intervaly',
    no_worst: 'Žiadne',
    within_of: '{{within}} z {{assessed}} v medziach',
    span_year: 'Od začiatku roka: {{from}} – {{to}}',
    week_share: 'Tento týždeň: {{pct}} % ({{within}} z {{assessed}})',
    verdict_PASS: 'Vyhovuje',
    verdict_FAIL: 'Nevyhovuje',
    verdict_NO_DATA: 'Bez údajov',
    verdict_NOT_MEASURED: 'Toto zariadenie nemeria',
    criterion_VOLTAGE_95: 'Napájacie napätie, 10-minútové priemery',
    criterion_VOLTAGE_ALWAYS: 'Napájacie napätie, vždy',
    criterion_FREQUENCY_995: 'Frekvencia, minútové priemery',
    criterion_FREQUENCY_ALWAYS: 'Frekvencia, vždy',
    criterion_THD_95: 'THD napätia, 10-minútové hodnoty',
    criterion_UNBALANCE_95: 'Nesymetria napätia, 10-minútové hodnoty',
    criterion_HARMONICS: 'Jednotlivé harmonické napätia',
    criterion_FLICKER: 'Miera vnemu flikra (Plt)',
    criterion_DIPS: 'Poklesy a prerušenia napätia',
    limit_range: '{{low}} až {{high}} {{unit}}',
    limit_max: 'najviac {{high}} {{unit}}',
    harmonics_title: 'Jednotlivé harmonické napätia, EN 50160:2010 tabuľka 1',
    harmonic_order: 'Rád',
    harmonic_limit: 'Limit',
    harmonic_worst_phase: 'Najhoršia fáza v medziach',
    harmonic_worst_interval: 'Najvyšší interval',
    harmonics_coverage:
      'Spektrum zistené v {{with}} z {{intervals}} 10-minútových intervalov ({{pct}} %). Rád vyhovuje, keď sú jeho 10-minútové hodnoty na každej fáze v medziach limitu aspoň v {{required}} % z nich.',
    harmonics_no_data:
      'Pre tento týždeň nie sú uložené žiadne spektrá harmonických, preto sa rády nehodnotia.',
    harmonics_by_order: 'Po rádoch v tabuľke nižšie',
    reason_FLICKER: 'Analyzátor nehlási flikr.',
    reason_DIPS: 'Analyzátor nehlási udalosti poklesov (efektívne hodnoty za polperiódu).',
    coverage: 'Pokrytie údajmi',
    coverage_text:
      'Uložených {{pct}} % minút týždňa; hodnotených {{assessed}} z {{intervals}} 10-minútových intervalov',
    nominal:
      'Menovité napätie {{voltage}} V, frekvencia {{frequency}} Hz; týždeň od pondelka 00:00 ({{zone}})',
    method:
      '10-minútové hodnoty sú efektívnou hodnotou uložených minútových priemerov každej fázy, podobne ako IEC 61000-4-30 trieda S. Frekvencia sa hodnotí od začiatku roka (1. január až koniec týždňa) z minútových priemerov, lebo analyzátor neposiela 10-sekundové priemery; jej najhoršie minúty sú z týždňa. Nesymetria je pomer spätnej zložky vypočítaný z troch združených napätí (IEC 61000-4-30). Interval s menej ako 5 uloženými minútami chýba a do podielov sa nezapočítava.',
    no_device: 'Vyberte presný analyzátor',
  },
};

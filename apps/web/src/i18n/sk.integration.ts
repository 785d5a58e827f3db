import type { Translation } from './en';

/** Slovak texts of the integration tokens screen. */
export const skIntegration: Pick<Translation, 'integration'> = {
  integration: {
    title: 'Tokeny pre integráciu',
    intro:
      'Token umožní inému programu (Grafana, Home Assistant, Excel, skript) čítať dáta vašich zariadení cez integračné API. Tokeny môžu iba čítať.',
    api_docs: 'Popis API',
    create: 'Vytvoriť token',
    name: 'Názov',
    name_rule: 'Najviac {{max}} znakov, bez < a >',
    devices: 'Zariadenia',
    all_devices: 'Všetky moje zariadenia',
    devices_hint: 'Ak nič nevyberiete, token bude platiť pre všetky vám priradené zariadenia',
    valid_until: 'Platný do (koniec dňa)',
    expiry: 'Platnosť',
    no_expiry: 'Bez obmedzenia',
    expired: 'Neplatný',
    created: 'Vytvorený',
    last_used: 'Naposledy použitý',
    never_used: 'Nikdy',
    revoke: 'Zrušiť',
    revoke_confirm: 'Zrušiť token „{{name}}“? Programy, ktoré ho používajú, okamžite stratia prístup.',
    revoked: 'Token bol zrušený',
    no_tokens: 'Žiadne tokeny',
    secret_title: 'Token „{{name}}“ bol vytvorený',
    secret_warning: 'Token si skopírujte teraz. Zobrazí sa iba tento jediný raz.',
    secret: 'Token',
    copy: 'Kopírovať',
    copied: 'Token bol skopírovaný',
    copy_failed: 'Token sa nepodarilo skopírovať; označte ho a skopírujte ručne',
    example: 'Vyskúšajte ho s curl:',
    done: 'Hotovo',
    invalid: 'Skontrolujte názov, zariadenia a dátum',
  },
};

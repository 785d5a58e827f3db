import type { Translation } from './en';

/** Slovak texts of the notification history and the e-mail destination. */
export const skNotificationHistory: Pick<Translation, 'notification_history'> = {
  notification_history: {
    title: 'História notifikácií',
    all: 'Všetky notifikácie',
    device: 'Zariadenie',
    all_devices: 'Všetky zariadenia',
    type: 'Typ',
    all_types: 'Všetky typy',
    period: 'Časový rozsah',
    state: 'Stav',
    all_states: 'Prečítané aj neprečítané',
    read: 'Prečítané',
    unread: 'Neprečítané',
    mark_read: 'Označiť ako prečítané',
    mark_page_read: 'Označiť stranu ako prečítanú',
    show_chart: 'Zobraziť graf',
    chart_of: 'Zobraziť graf zariadenia {{title}} v tom čase',
    newer: 'Novšie',
    older: 'Staršie',
    page: 'Strana {{page}}',
    empty: 'Filtrom nezodpovedá žiadna notifikácia',
    unknown_device: 'Zariadenie už nie je priradené',
    email: 'E-mail ({{address}})',
    email_new: 'E-mail',
    email_address: 'E-mailová adresa',
    email_invalid: 'Zadajte e-mailovú adresu, napríklad meno@example.com',
    email_language: 'Správy budú písané po slovensky.',
  },
};

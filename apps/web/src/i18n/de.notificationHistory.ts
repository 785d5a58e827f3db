import type { Translation } from './en';

/** German texts of the notification history and the e-mail destination. */
export const deNotificationHistory: Pick<Translation, 'notification_history'> = {
  notification_history: {
    title: 'Benachrichtigungsverlauf',
    all: 'Alle Benachrichtigungen',
    device: 'Gerät',
    all_devices: 'Alle Geräte',
    type: 'Typ',
    all_types: 'Alle Typen',
    period: 'Zeitraum',
    state: 'Status',
    all_states: 'Gelesen und ungelesen',
    read: 'Gelesen',
    unread: 'Ungelesen',
    mark_read: 'Als gelesen markieren',
    mark_page_read: 'Seite als gelesen markieren',
    show_chart: 'Diagramm anzeigen',
    chart_of: 'Diagramm von {{title}} zu dieser Zeit anzeigen',
    newer: 'Neuere',
    older: 'Ältere',
    page: 'Seite {{page}}',
    empty: 'Keine Benachrichtigung entspricht den Filtern',
    unknown_device: 'Gerät nicht mehr zugewiesen',
    email: 'E-Mail ({{address}})',
    email_new: 'E-Mail',
    email_address: 'E-Mail-Adresse',
    email_invalid: 'Geben Sie eine E-Mail-Adresse ein, z. B. name@example.com',
    email_language: 'Die Nachrichten werden auf Deutsch verfasst.',
  },
};

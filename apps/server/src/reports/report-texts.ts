import type { MessageLanguage, PqCriterion, PqVerdict, ReportKind } from '@meterportal/protocol';
import { FOLDER_PQ_WORDS, type FolderPqWords } from './report-texts-folder-pq';

/** The words of PDF reports and their e-mails. */
export interface ReportWords {
  locale: string;
  titles: Record<
    ReportKind | 'FOLDER_ENERGY' | 'FOLDER_PEAKS' | 'FOLDER_AVAILABILITY' | 'FOLDER_POWER_QUALITY',
    string
  >;
  folder: string;
  devices: string;
  sumOfPeaks: string;
  coincidentPeak: string;
  /** How the sum of peaks and the coincident peak differ. */
  peaksNote: string;
  outages: string;
  meanShare: string;
  belowFull: string;
  mac: string;
  devicesWithoutTariff: string;
  device: string;
  period: string;
  timeZone: string;
  created: string;
  day: string;
  importKwh: string;
  exportKwh: string;
  cost: string;
  total: string;
  energyCost: string;
  fixedFee: string;
  capacityCharge: string;
  vat: string;
  exportCredit: string;
  noTariff: string;
  noData: string;
  month: string;
  peakKw: string;
  peakAt: string;
  avg12Kw: string;
  mrk: string;
  rk: string;
  notSet: string;
  periodPeak: string;
  quartersAboveMrk: string;
  quartersAboveRk: string;
  quartersAbove: string;
  quarterStart: string;
  demandKw: string;
  online: string;
  offline: string;
  share: string;
  page: string;
  mailSubject: string;
  mailText: string;
  pq: {
    week: string;
    noWeeks: string;
    verdict: Record<PqVerdict, string>;
    criteria: Record<PqCriterion, string>;
    criterion: string;
    result: string;
    limits: string;
    required: string;
    achieved: string;
    span: string;
    yearToDate: string;
    thisWeek: string;
    worst: string;
    start: string;
    phase: string;
    value: string;
    coverage: string;
    /** {pct} of the minutes stored; {assessed} of {intervals} 10-minute intervals assessed. */
    coverageText: string;
    nominal: string;
    method: string;
    /** Heading of the harmonic orders' table. */
    harmonics: string;
    /** {with} of {intervals} 10-minute intervals with a polled spectrum ({pct}); {required} per order. */
    harmonicsCoverage: string;
    harmonicsNoData: string;
    order: string;
    limit: string;
    worstPhase: string;
    highest: string;
  };
  folderPq: FolderPqWords;
}

/** Words of reports per language. */
export const REPORT_WORDS: Record<MessageLanguage, ReportWords> = {
  en: {
    locale: 'en-GB',
    titles: {
      ENERGY_COST: 'Energy and cost',
      PEAKS: 'Maximum demand and capacity',
      AVAILABILITY: 'Availability',
      POWER_QUALITY: 'Power quality (EN 50160)',
      FOLDER_ENERGY: 'Energy and cost of a folder',
      FOLDER_PEAKS: 'Maximum demand of a folder',
      FOLDER_AVAILABILITY: 'Availability of a folder',
      FOLDER_POWER_QUALITY: 'Power quality of a folder (EN 50160)',
    },
    folder: 'Folder',
    devices: 'Devices',
    sumOfPeaks: 'Sum of the devices’ peaks (kW)',
    coincidentPeak: 'Coincident peak of the folder',
    peaksNote:
      'The sum adds each device’s own highest quarter hour, whenever it fell. The coincident peak is the highest quarter hour of the devices’ demand added up quarter by quarter: the most the folder drew at once, never above the sum.',
    outages: 'Outages',
    meanShare: 'Mean online share of the devices',
    belowFull: 'Devices below 100 % online',
    mac: 'MAC',
    devicesWithoutTariff: 'Devices without a tariff count in energy only: {n}.',
    device: 'Device',
    period: 'Period',
    timeZone: 'Time zone',
    created: 'Created',
    day: 'Day',
    importKwh: 'Import (kWh)',
    exportKwh: 'Export (kWh)',
    cost: 'Cost',
    total: 'Total',
    energyCost: 'Energy',
    fixedFee: 'Fixed fee',
    capacityCharge: 'Capacity charge',
    vat: 'VAT',
    exportCredit: 'Export credit',
    noTariff: 'No tariff is set for this device: energy only.',
    noData: 'No data in this period.',
    month: 'Month',
    peakKw: 'Peak (kW)',
    peakAt: 'Peak quarter hour',
    avg12Kw: '12-month average (kW)',
    mrk: 'MRK (kW)',
    rk: 'RK (kW)',
    notSet: 'not set',
    periodPeak: 'Highest quarter hour of the period',
    quartersAboveMrk: 'Quarter hours above MRK',
    quartersAboveRk: 'Quarter hours above RK',
    quartersAbove: 'Highest quarter hours above a limit',
    quarterStart: 'Quarter hour',
    demandKw: 'Demand (kW)',
    online: 'Online (h)',
    offline: 'Offline (h)',
    share: 'Online share',
    page: 'Page',
    mailSubject: 'Report',
    mailText: 'The report is attached as a PDF file.',
    pq: {
      week: 'Week',
      noWeeks: 'No week ends in this period.',
      verdict: { PASS: 'Pass', FAIL: 'Fail', NO_DATA: 'No data', NOT_MEASURED: 'Not measured' },
      criteria: {
        VOLTAGE_95: 'Supply voltage, 10-minute means',
        VOLTAGE_ALWAYS: 'Supply voltage, always',
        FREQUENCY_995: 'Frequency, minute means',
        FREQUENCY_ALWAYS: 'Frequency, always',
        THD_95: 'Voltage THD, 10-minute values',
        UNBALANCE_95: 'Voltage unbalance, 10-minute values',
        HARMONICS: 'Individual harmonic voltages',
        FLICKER: 'Flicker severity (Plt)',
        DIPS: 'Voltage dips and interruptions',
      },
      criterion: 'Criterion',
      result: 'Result',
      limits: 'Limits',
      required: 'Required',
      achieved: 'Achieved',
      span: 'Counted over',
      yearToDate: 'year to date',
      thisWeek: 'this week',
      worst: 'Worst intervals',
      start: 'Start',
      phase: 'Phase',
      value: 'Value',
      coverage: 'Data coverage',
      coverageText: '{pct} of the minutes stored; {assessed} of {intervals} 10-minute intervals assessed',
      nominal: 'Nominal voltage {v} V, frequency {f} Hz',
      method:
        'EN 50160: 10-minute values are the rms of the stored one-minute means (IEC 61000-4-30 class S style); frequency is judged over the year to date from one-minute means; single harmonic orders from the spectra polled from the analyzer every 10 minutes. Not measured: the analyzer reports no flicker and no dip events.',
      harmonics: 'Individual harmonic voltages, EN 50160:2010 Table 1',
      harmonicsCoverage:
        'Spectra polled for {with} of {intervals} 10-minute intervals ({pct}); each order must be within its limit on every phase in {required} of them',
      harmonicsNoData: 'No harmonic spectra are stored for this week: the orders are not judged.',
      order: 'Order',
      limit: 'Limit',
      worstPhase: 'Worst phase within',
      highest: 'Highest interval',
    },
    folderPq: FOLDER_PQ_WORDS.en,
  },
  sk: {
    locale: 'sk-SK',
    titles: {
      ENERGY_COST: 'Energia a náklady',
      PEAKS: 'Maximálny odber a kapacita',
      AVAILABILITY: 'Dostupnosť',
      POWER_QUALITY: 'Kvalita elektriny (EN 50160)',
      FOLDER_ENERGY: 'Energia a náklady priečinka',
      FOLDER_PEAKS: 'Maximálny odber priečinka',
      FOLDER_AVAILABILITY: 'Dostupnosť priečinka',
      FOLDER_POWER_QUALITY: 'Kvalita elektriny priečinka (EN 50160)',
    },
    folder: 'Priečinok',
    devices: 'Zariadenia',
    sumOfPeaks: 'Súčet špičiek zariadení (kW)',
    coincidentPeak: 'Súčasná špička priečinka',
    peaksNote:
      'Súčet sčíta najvyššiu štvrťhodinu každého zariadenia, nech nastala kedykoľvek. Súčasná špička je najvyššia štvrťhodina odberu zariadení sčítaného po štvrťhodinách: najviac, čo priečinok odoberal naraz, nikdy nie viac ako súčet.',
    outages: 'Výpadky',
    meanShare: 'Priemerný podiel online zariadení',
    belowFull: 'Zariadenia pod 100 % online',
    mac: 'MAC',
    devicesWithoutTariff: 'Zariadenia bez tarifu sa počítajú len v energii: {n}.',
    device: 'Zariadenie',
    period: 'Obdobie',
    timeZone: 'Časové pásmo',
    created: 'Vytvorené',
    day: 'Deň',
    importKwh: 'Odber (kWh)',
    exportKwh: 'Dodávka (kWh)',
    cost: 'Náklady',
    total: 'Spolu',
    energyCost: 'Energia',
    fixedFee: 'Pevný poplatok',
    capacityCharge: 'Poplatok za kapacitu',
    vat: 'DPH',
    exportCredit: 'Dobropis za dodávku',
    noTariff: 'Zariadenie nemá nastavený tarif: len energia.',
    noData: 'V tomto období nie sú údaje.',
    month: 'Mesiac',
    peakKw: 'Špička (kW)',
    peakAt: 'Štvrťhodina špičky',
    avg12Kw: 'Priemer 12 mesiacov (kW)',
    mrk: 'MRK (kW)',
    rk: 'RK (kW)',
    notSet: 'nenastavené',
    periodPeak: 'Najvyššia štvrťhodina obdobia',
    quartersAboveMrk: 'Štvrťhodiny nad MRK',
    quartersAboveRk: 'Štvrťhodiny nad RK',
    quartersAbove: 'Najvyššie štvrťhodiny nad limitom',
    quarterStart: 'Štvrťhodina',
    demandKw: 'Odber (kW)',
    online: 'Online (h)',
    offline: 'Offline (h)',
    share: 'Podiel online',
    page: 'Strana',
    mailSubject: 'Správa',
    mailText: 'Správa je priložená ako súbor PDF.',
    pq: {
      week: 'Týždeň',
      noWeeks: 'V tomto období sa nekončí žiadny týždeň.',
      verdict: { PASS: 'Vyhovuje', FAIL: 'Nevyhovuje', NO_DATA: 'Bez údajov', NOT_MEASURED: 'Nemeria sa' },
      criteria: {
        VOLTAGE_95: 'Napájacie napätie, 10-minútové priemery',
        VOLTAGE_ALWAYS: 'Napájacie napätie, vždy',
        FREQUENCY_995: 'Frekvencia, minútové priemery',
        FREQUENCY_ALWAYS: 'Frekvencia, vždy',
        THD_95: 'THD napätia, 10-minútové hodnoty',
        UNBALANCE_95: 'Nesymetria napätia, 10-minútové hodnoty',
        HARMONICS: 'Jednotlivé harmonické napätia',
        FLICKER: 'Miera flikru (Plt)',
        DIPS: 'Poklesy a prerušenia napätia',
      },
      criterion: 'Kritérium',
      result: 'Výsledok',
      limits: 'Limity',
      required: 'Požadované',
      achieved: 'Dosiahnuté',
      span: 'Počítané za',
      yearToDate: 'rok doteraz',
      thisWeek: 'tento týždeň',
      worst: 'Najhoršie intervaly',
      start: 'Začiatok',
      phase: 'Fáza',
      value: 'Hodnota',
      coverage: 'Pokrytie údajmi',
      coverageText: '{pct} minút uložených; posúdených {assessed} z {intervals} 10-minútových intervalov',
      nominal: 'Menovité napätie {v} V, frekvencia {f} Hz',
      method:
        'EN 50160: 10-minútové hodnoty sú efektívne hodnoty uložených minútových priemerov (v štýle IEC 61000-4-30 triedy S); frekvencia sa posudzuje za rok doteraz z minútových priemerov; jednotlivé harmonické zo spektier, ktoré sa z analyzátora zisťujú každých 10 minút. Nemeria sa: analyzátor nehlási flikr ani udalosti poklesov.',
      harmonics: 'Jednotlivé harmonické napätia, EN 50160:2010 tabuľka 1',
      harmonicsCoverage:
        'Spektrum zistené v {with} z {intervals} 10-minútových intervalov ({pct}); každý rád musí byť na každej fáze v medziach limitu v {required} z nich',
      harmonicsNoData: 'Pre tento týždeň nie sú uložené žiadne spektrá harmonických: rády sa nehodnotia.',
      order: 'Rád',
      limit: 'Limit',
      worstPhase: 'Najhoršia fáza v medziach',
      highest: 'Najvyšší interval',
    },
    folderPq: FOLDER_PQ_WORDS.sk,
  },
  de: {
    locale: 'de-DE',
    titles: {
      ENERGY_COST: 'Energie und Kosten',
      PEAKS: 'Höchstlast und Leistung',
      AVAILABILITY: 'Verfügbarkeit',
      POWER_QUALITY: 'Spannungsqualität (EN 50160)',
      FOLDER_ENERGY: 'Energie und Kosten eines Ordners',
      FOLDER_PEAKS: 'Höchstlast eines Ordners',
      FOLDER_AVAILABILITY: 'Verfügbarkeit eines Ordners',
      FOLDER_POWER_QUALITY: 'Spannungsqualität eines Ordners (EN 50160)',
    },
    folder: 'Ordner',
    devices: 'Geräte',
    sumOfPeaks: 'Summe der Gerätespitzen (kW)',
    coincidentPeak: 'Gleichzeitige Spitze des Ordners',
    peaksNote:
      'Die Summe addiert die höchste Viertelstunde jedes Geräts, wann immer sie lag. Die gleichzeitige Spitze ist die höchste Viertelstunde der viertelstündlich addierten Leistung der Geräte: das Meiste, was der Ordner auf einmal bezog, nie über der Summe.',
    outages: 'Ausfälle',
    meanShare: 'Mittlerer Online-Anteil der Geräte',
    belowFull: 'Geräte unter 100 % online',
    mac: 'MAC',
    devicesWithoutTariff: 'Geräte ohne Tarif zählen nur bei der Energie: {n}.',
    device: 'Gerät',
    period: 'Zeitraum',
    timeZone: 'Zeitzone',
    created: 'Erstellt',
    day: 'Tag',
    importKwh: 'Bezug (kWh)',
    exportKwh: 'Einspeisung (kWh)',
    cost: 'Kosten',
    total: 'Summe',
    energyCost: 'Energie',
    fixedFee: 'Grundgebühr',
    capacityCharge: 'Leistungspreis',
    vat: 'MwSt.',
    exportCredit: 'Einspeisevergütung',
    noTariff: 'Für dieses Gerät ist kein Tarif festgelegt: nur Energie.',
    noData: 'Keine Daten in diesem Zeitraum.',
    month: 'Monat',
    peakKw: 'Spitze (kW)',
    peakAt: 'Viertelstunde der Spitze',
    avg12Kw: '12-Monats-Mittel (kW)',
    mrk: 'MRK (kW)',
    rk: 'RK (kW)',
    notSet: 'nicht festgelegt',
    periodPeak: 'Höchste Viertelstunde des Zeitraums',
    quartersAboveMrk: 'Viertelstunden über MRK',
    quartersAboveRk: 'Viertelstunden über RK',
    quartersAbove: 'Höchste Viertelstunden über einem Grenzwert',
    quarterStart: 'Viertelstunde',
    demandKw: 'Leistung (kW)',
    online: 'Online (h)',
    offline: 'Offline (h)',
    share: 'Online-Anteil',
    page: 'Seite',
    mailSubject: 'Bericht',
    mailText: 'Der Bericht ist als PDF-Datei angehängt.',
    pq: {
      week: 'Woche',
      noWeeks: 'In diesem Zeitraum endet keine Woche.',
      verdict: {
        PASS: 'Erfüllt',
        FAIL: 'Nicht erfüllt',
        NO_DATA: 'Keine Daten',
        NOT_MEASURED: 'Nicht gemessen',
      },
      criteria: {
        VOLTAGE_95: 'Versorgungsspannung, 10-Minuten-Mittelwerte',
        VOLTAGE_ALWAYS: 'Versorgungsspannung, immer',
        FREQUENCY_995: 'Frequenz, Minutenmittelwerte',
        FREQUENCY_ALWAYS: 'Frequenz, immer',
        THD_95: 'Spannungs-THD, 10-Minuten-Werte',
        UNBALANCE_95: 'Spannungsunsymmetrie, 10-Minuten-Werte',
        HARMONICS: 'Einzelne Oberschwingungsspannungen',
        FLICKER: 'Flickerstärke (Plt)',
        DIPS: 'Spannungseinbrüche und Unterbrechungen',
      },
      criterion: 'Kriterium',
      result: 'Ergebnis',
      limits: 'Grenzen',
      required: 'Gefordert',
      achieved: 'Erreicht',
      span: 'Gezählt über',
      yearToDate: 'Jahr bis heute',
      thisWeek: 'diese Woche',
      worst: 'Schlechteste Intervalle',
      start: 'Beginn',
      phase: 'Phase',
      value: 'Wert',
      coverage: 'Datenabdeckung',
      coverageText:
        '{pct} der Minuten gespeichert; {assessed} von {intervals} 10-Minuten-Intervallen bewertet',
      nominal: 'Nennspannung {v} V, Frequenz {f} Hz',
      method:
        'EN 50160: 10-Minuten-Werte sind der Effektivwert der gespeicherten Minutenmittelwerte (nach Art von IEC 61000-4-30 Klasse S); die Frequenz wird über das Jahr bis heute aus Minutenmittelwerten beurteilt; einzelne Oberschwingungen aus den Spektren, die alle 10 Minuten vom Analysator abgefragt werden. Nicht gemessen: Der Analysator meldet keinen Flicker und keine Einbruchsereignisse.',
      harmonics: 'Einzelne Oberschwingungsspannungen, EN 50160:2010 Tabelle 1',
      harmonicsCoverage:
        'Spektren abgefragt für {with} von {intervals} 10-Minuten-Intervallen ({pct}); jede Ordnung muss auf jeder Phase in {required} davon den Grenzwert einhalten',
      harmonicsNoData:
        'Für diese Woche sind keine Oberschwingungsspektren gespeichert: Die Ordnungen werden nicht bewertet.',
      order: 'Ordnung',
      limit: 'Grenzwert',
      worstPhase: 'Schlechteste Phase eingehalten',
      highest: 'Höchstes Intervall',
    },
    folderPq: FOLDER_PQ_WORDS.de,
  },
};

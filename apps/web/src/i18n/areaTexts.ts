import type { enAlarms } from './en.alarms';
import type { enAreas } from './en.areas';
import type { enCosts } from './en.costs';
import type { enIntegration } from './en.integration';
import type { enManagement } from './en.management';
import type { enExports } from './en.exports';
import type { enRegistration } from './en.registration';
import type { enSettings } from './en.settings';
import type { enAppliances } from './en.appliances';
import type { enPowerQuality } from './en.powerQuality';
import type { enAnomalies } from './en.anomalies';
import type { enSiteMaps } from './en.sitemaps';
import type { enJsonMeter } from './en.jsonMeter';
import type { enReports } from './en.reports';

/** Every English area table the signed-in shell loads beside the sign-in page's core. */
type AreaTexts = typeof enAreas &
  typeof enIntegration &
  typeof enCosts &
  typeof enAlarms &
  typeof enManagement &
  typeof enExports &
  typeof enRegistration &
  typeof enSettings &
  typeof enAppliances &
  typeof enPowerQuality &
  typeof enAnomalies &
  typeof enSiteMaps &
  typeof enJsonMeter &
  typeof enReports;

/**
 * The English texts the signed-in shell loads beside the sign-in page's core: every area's table
 * of `en` (a table spread into `en` but missing here would show as raw keys in English).
 */
export async function englishAreaTexts(): Promise<AreaTexts> {
  const tables: object[] = await Promise.all([
    import('./en.areas').then((m) => m.enAreas),
    import('./en.integration').then((m) => m.enIntegration),
    import('./en.costs').then((m) => m.enCosts),
    import('./en.alarms').then((m) => m.enAlarms),
    import('./en.management').then((m) => m.enManagement),
    import('./en.exports').then((m) => m.enExports),
    import('./en.registration').then((m) => m.enRegistration),
    import('./en.settings').then((m) => m.enSettings),
    import('./en.appliances').then((m) => m.enAppliances),
    import('./en.powerQuality').then((m) => m.enPowerQuality),
    import('./en.anomalies').then((m) => m.enAnomalies),
    import('./en.sitemaps').then((m) => m.enSiteMaps),
    import('./en.jsonMeter').then((m) => m.enJsonMeter),
    import('./en.reports').then((m) => m.enReports),
  ]);
  return Object.assign({}, ...tables) as AreaTexts;
}

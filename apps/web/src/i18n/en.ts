import { enAlarms } from './en.alarms';
import { enAreas } from './en.areas';
import { enCore } from './en.core';
import { enIntegration } from './en.integration';
import { enCosts } from './en.costs';
import { enManagement } from './en.management';
import { enExports } from './en.exports';
import { enRegistration } from './en.registration';
import { enSettings } from './en.settings';
import { enAppliances } from './en.appliances';
import { enPowerQuality } from './en.powerQuality';
import { enAnomalies } from './en.anomalies';
import { enSiteMaps } from './en.sitemaps';
import { enJsonMeter } from './en.jsonMeter';
import { enReports } from './en.reports';

/** English texts, the reference language: Slovak and German must provide every key. */
export const en = {
  ...enCore,
  ...enAreas,
  ...enIntegration,
  ...enCosts,
  ...enAlarms,
  ...enManagement,
  ...enExports,
  ...enRegistration,
  ...enSettings,
  ...enAppliances,
  ...enPowerQuality,
  ...enAnomalies,
  ...enSiteMaps,
  ...enJsonMeter,
  ...enReports,
} as const;

/** Shape every translation must have: same keys, any text. */
type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Translation = Widen<typeof en>;

import { OkEnvelope } from './common';
import type { RouteDef } from './routes';
import {
  CostRequest,
  CostResponse,
  PeaksRequest,
  PeaksResponse,
  TariffDeleteRequest,
  TariffSaveRequest,
  TariffsReadRequest,
  TariffsResponse,
} from './tariffs';

/** Tariff routes: versions per device, cost beside energy, and capacity peaks. */
export const tariffsRoutes = {
  tariffsRead: {
    door: 'read',
    method: 'POST',
    path: '/tariffs',
    session: 'cookie',
    tag: 'tariffs',
    summary: "The device's tariff versions, oldest first",
    body: TariffsReadRequest,
    response: TariffsResponse,
  },
  tariffSave: {
    door: 'write',
    method: 'POST',
    path: '/tariffs',
    session: 'cookie',
    tag: 'tariffs',
    summary: 'Add a tariff version or replace the one of the same validFrom; owners only',
    body: TariffSaveRequest,
    response: OkEnvelope,
  },
  tariffDelete: {
    door: 'write',
    method: 'DELETE',
    path: '/tariffs',
    session: 'cookie',
    tag: 'tariffs',
    summary: 'Remove the tariff version starting on validFrom; owners only',
    body: TariffDeleteRequest,
    response: OkEnvelope,
  },
  energyCost: {
    door: 'read',
    method: 'POST',
    path: '/energy/cost',
    session: 'cookie',
    tag: 'tariffs',
    summary: 'Energy and its cost per hour, day, month or year, per band, in cents; 610 without a tariff',
    body: CostRequest,
    response: CostResponse,
  },
  energyPeaks: {
    door: 'read',
    method: 'POST',
    path: '/energy/peaks',
    session: 'cookie',
    tag: 'tariffs',
    summary: 'Monthly quarter-hour peaks, their 12-month average, and the running quarter hour',
    body: PeaksRequest,
    response: PeaksResponse,
  },
} as const satisfies Record<string, RouteDef>;

import type { DataSourceId, ProfileResolution } from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { call, isDataNotFound } from '../../api/http';
import type { ErrorMeta } from '../../api/queryClient';
import { normalizePoints, type Point } from '../../charts/series';
import { energyTo, type DateRange } from './dateRanges';
import type { EnergyView, ProfileView } from './views';

export const telemetryKeys = {
  all: ['telemetry'] as const,
  profile: (
    token: string,
    quantity: string,
    from: number,
    to: number,
    source: number | null,
    cumulative: boolean,
  ) => [...telemetryKeys.all, 'profile', token, quantity, from, to, source, cumulative] as const,
  energy: (
    token: string,
    data: string,
    period: string,
    maximum: boolean,
    from: number,
    to: number,
    source: number,
  ) => [...telemetryKeys.all, 'energy', token, data, period, maximum, from, to, source] as const,
};

/** 610 clears the chart and says data_not_found; anything else is a communication error. */
const chartErrors: ErrorMeta = {
  errorKey: (e) => (isDataNotFound(e) ? 'common.data_not_found' : 'common.api_communication_error'),
};

export interface ProfileSeries {
  /** Per phase L1..L3; frequency arrives as one list, shown as L1. */
  phases: Partial<Record<'L1' | 'L2' | 'L3', Point[]>>;
  /** The server's sum over phases, when the call asked for it. */
  cumulative?: Point[];
  /** How the server combined the points: per minute, hourly or daily. */
  resolution?: ProfileResolution;
}

/** Reads data[quantity] of a (validated) profile answer into sorted, scaled points. */
export function readProfile(data: unknown, quantity: string, divisor: number): ProfileSeries {
  const q = (data as Record<string, unknown> | null)?.[quantity];
  if (Array.isArray(q)) return { phases: { L1: normalizePoints(q, divisor) } };
  const o = (q ?? {}) as Record<string, unknown>;
  const out: ProfileSeries = { phases: {} };
  for (const p of ['L1', 'L2', 'L3'] as const)
    if (o[p] !== undefined) out.phases[p] = normalizePoints(o[p], divisor);
  if (o.cumulative !== undefined) out.cumulative = normalizePoints(o.cumulative, divisor);
  return out;
}

export function useProfileQuery(
  view: ProfileView,
  deviceToken: string | undefined,
  range: DateRange,
  source: DataSourceId,
) {
  const src = view.withSource ? source : null;
  return useQuery({
    queryKey: telemetryKeys.profile(
      deviceToken ?? '',
      view.quantity,
      range.from,
      range.to,
      src,
      view.cumulative,
    ),
    queryFn: async ({ signal }) => {
      const res = await call(
        'profile',
        {
          token: deviceToken ?? '',
          data: view.quantity,
          phase: 'L1,L2,L3',
          from: range.from,
          to: range.to,
          format: 'H',
          cumulative: view.cumulative,
          ...(src !== null ? { source: src } : {}),
        },
        { signal },
      );
      return { ...readProfile(res.data, view.quantity, view.divisor), resolution: res.resolution };
    },
    enabled: !!deviceToken,
    meta: chartErrors,
  });
}

/** Reads data[key].CUM for each key of an energy answer. */
export function readEnergy(data: unknown, keys: readonly string[], divisor: number): Record<string, Point[]> {
  const d = (data ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    keys.map((k) => [k, normalizePoints((d[k] as Record<string, unknown> | undefined)?.CUM, divisor)]),
  );
}

export function useEnergyQuery(
  view: EnergyView,
  deviceToken: string | undefined,
  range: DateRange,
  source: DataSourceId,
) {
  const to = energyTo(range);
  return useQuery({
    queryKey: telemetryKeys.energy(
      deviceToken ?? '',
      view.data,
      view.period,
      view.maximum,
      range.from,
      to,
      source,
    ),
    queryFn: async ({ signal }) => {
      const res = await call(
        'energy',
        {
          token: deviceToken ?? '',
          data: view.data,
          phase: 'CUM',
          from: range.from,
          to,
          period: view.period,
          format: 'H',
          maximum: view.maximum,
          source,
        },
        { signal },
      );
      return readEnergy(res.data, view.data.split(','), view.divisor);
    },
    enabled: !!deviceToken,
    meta: chartErrors,
  });
}

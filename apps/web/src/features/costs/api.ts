import type { CostPeriod, RouteAnswer, Tariff } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { call, isDataNotFound } from '../../api/http';
import { snackbar } from '../../api/notify';
import { apiErrors, type ErrorMeta } from '../../api/queryClient';

export const costsKeys = {
  all: ['costs'] as const,
  tariffs: (token: string) => [...costsKeys.all, 'tariffs', token] as const,
  cost: (token: string, period: CostPeriod, from: number, to: number) =>
    [...costsKeys.all, 'cost', token, period, from, to] as const,
  peaks: (token: string) => [...costsKeys.all, 'peaks', token] as const,
};

/** 610 (no tariff, no energy) empties the page with its own text; other failures raise a toast. */
const quietNotFound: ErrorMeta = {
  errorKey: (e) => (isDataNotFound(e) ? null : 'common.api_communication_error'),
};

/** The device's tariff versions and whether the user may edit them. */
export function useTariffsQuery(token: string | undefined) {
  return useQuery({
    queryKey: costsKeys.tariffs(token ?? ''),
    queryFn: async ({ signal }): Promise<RouteAnswer<'tariffsRead'>['data']> =>
      (await call('tariffsRead', { token: token ?? '' }, { signal })).data,
    enabled: !!token,
    meta: apiErrors,
  });
}

/** Saves a version (a new date adds one, an existing date replaces it); cost is read again after. */
export function useSaveTariffMutation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (tariff: Tariff) => {
      await call('tariffSave', { token, tariff });
    },
    onSuccess: async () => {
      snackbar('success', i18next.t('costs.saved'));
      await qc.invalidateQueries({ queryKey: costsKeys.all });
    },
    meta: apiErrors,
  });
}

/** Removes the version starting on a date. */
export function useDeleteTariffMutation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (validFrom: string) => {
      await call('tariffDelete', { token, validFrom });
    },
    onSuccess: async () => {
      snackbar('success', i18next.t('costs.deleted'));
      await qc.invalidateQueries({ queryKey: costsKeys.all });
    },
    meta: apiErrors,
  });
}

/** Energy and cost per period over a range. */
export function useCostQuery(token: string | undefined, period: CostPeriod, from: number, to: number) {
  return useQuery({
    queryKey: costsKeys.cost(token ?? '', period, from, to),
    queryFn: async ({ signal }): Promise<RouteAnswer<'energyCost'>['data']> =>
      (await call('energyCost', { token: token ?? '', period, from, to }, { signal })).data,
    enabled: !!token,
    meta: quietNotFound,
  });
}

/** How often the running quarter hour is read again, ms. */
export const PEAKS_REFRESH_MS = 10_000;

/** Monthly peaks of the last 13 months and the running quarter hour, read again every 10 s. */
export function usePeaksQuery(token: string | undefined) {
  return useQuery({
    queryKey: costsKeys.peaks(token ?? ''),
    queryFn: async ({ signal }): Promise<RouteAnswer<'energyPeaks'>['data']> =>
      (await call('energyPeaks', { token: token ?? '', months: 13 }, { signal })).data,
    enabled: !!token,
    refetchInterval: PEAKS_REFRESH_MS,
    staleTime: 0,
    meta: quietNotFound,
  });
}

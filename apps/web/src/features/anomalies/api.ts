import type { RouteAnswer } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http';
import { apiErrors } from '../../api/queryClient';

export const anomalyKeys = {
  all: ['anomalies'] as const,
  model: (deviceToken: string) => [...anomalyKeys.all, 'model', deviceToken] as const,
  band: (deviceToken: string, from: number, to: number) =>
    [...anomalyKeys.all, 'band', deviceToken, from, to] as const,
};

/** The data of the model answer: model, what history there was, recent anomalies. */
export type AnomalyModelData = RouteAnswer<'anomalyModel'>['data'];

/** The model of an owned household meter and its recent anomalies. */
export function useAnomalyModelQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: anomalyKeys.model(deviceToken ?? ''),
    enabled: deviceToken !== undefined,
    queryFn: async ({ signal }): Promise<AnomalyModelData> =>
      (await call('anomalyModel', { token: deviceToken ?? '' }, { signal })).data,
    meta: apiErrors,
  });
}

/** Trains the model; the answer replaces the cached model, bands are read again. */
export function useTrainAnomalyModelMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { weeks: number; hoursInRow: number }) =>
      (await call('anomalyTrain', { token: deviceToken ?? '', ...body })).data,
    onSuccess: (data) => {
      qc.setQueryData(anomalyKeys.model(deviceToken ?? ''), data);
      void qc.invalidateQueries({ queryKey: [...anomalyKeys.all, 'band'] });
    },
    meta: apiErrors,
  });
}

/** The expected band per hour, [ms, low kWh, high kWh]; empty while the meter has no model. */
export function useAnomalyBandQuery(deviceToken: string | undefined, from: number, to: number) {
  return useQuery({
    queryKey: anomalyKeys.band(deviceToken ?? '', from, to),
    enabled: deviceToken !== undefined,
    queryFn: async ({ signal }): Promise<[number, number, number][]> =>
      (await call('anomalyBand', { token: deviceToken ?? '', from, to }, { signal })).data,
  });
}

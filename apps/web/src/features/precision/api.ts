import type { HarmonicsResult, WaveformResult } from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/http';
import { commandErrorKey } from './commandErrors';

export const precisionKeys = {
  all: ['precision'] as const,
  harmonics: (deviceToken: string) => [...precisionKeys.all, 'harmonics', deviceToken] as const,
  waveform: (deviceToken: string) => [...precisionKeys.all, 'waveform', deviceToken] as const,
};

/**
 * Device commands are asked for afresh on every visit, device pick and Refresh: nothing is kept in
 * the cache and nothing is retried (the device would be asked twice).
 */
const commandQuery = { staleTime: 0, gcTime: 0, retry: false, refetchOnMount: 'always' } as const;

/**
 * Harmonic spectrum of the device. The query consumes the abort signal, so leaving the screen
 * (the query losing its last observer) cancels the pending request.
 */
export function useHarmonicsQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: precisionKeys.harmonics(deviceToken ?? ''),
    queryFn: async ({ signal }): Promise<HarmonicsResult> => {
      return (await call('harmonics', { device_token: deviceToken ?? '' }, { signal })).data;
    },
    enabled: !!deviceToken,
    ...commandQuery,
    meta: { errorKey: (e) => commandErrorKey(e, 'harmonics') },
  });
}

/** Waveform of the device; not cancelled on leaving (the signal is not passed on). */
export function useWaveformQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: precisionKeys.waveform(deviceToken ?? ''),
    queryFn: async (): Promise<WaveformResult> => {
      return (await call('waveform', { device_token: deviceToken ?? '' })).data;
    },
    enabled: !!deviceToken,
    ...commandQuery,
    meta: { errorKey: (e) => commandErrorKey(e, 'waveform') },
  });
}

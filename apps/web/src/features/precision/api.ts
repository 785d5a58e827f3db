import {
  HarmonicsResponse,
  WaveformResponse,
  type HarmonicsResult,
  type WaveformResult,
} from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR_CODE, call } from '../../api/http';
import { commandErrorKey } from './commandErrors';

export const precisionKeys = {
  all: ['precision'] as const,
  harmonics: (deviceToken: string) => [...precisionKeys.all, 'harmonics', deviceToken] as const,
  waveform: (deviceToken: string) => [...precisionKeys.all, 'waveform', deviceToken] as const,
};

const unreadable = (what: string) => new ApiError(NETWORK_ERROR_CODE, `unreadable ${what} answer`, 200);

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
      const res = HarmonicsResponse.safeParse(
        await call<unknown>(
          'read',
          '/applied-precision/harmonics',
          { device_token: deviceToken },
          { signal },
        ),
      );
      if (!res.success) throw unreadable('harmonics');
      return res.data.data;
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
      const res = WaveformResponse.safeParse(
        await call<unknown>('read', '/applied-precision/waveform', { device_token: deviceToken }),
      );
      if (!res.success) throw unreadable('waveform');
      return res.data.data;
    },
    enabled: !!deviceToken,
    ...commandQuery,
    meta: { errorKey: (e) => commandErrorKey(e, 'waveform') },
  });
}

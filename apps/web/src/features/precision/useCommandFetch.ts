import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useSelectedDevice } from '../devices/selection';
import { useCountdown } from './countdown';

/**
 * A device command asked for on arrival, on every device pick and on Refresh, each starting the
 * lockout of `lockoutSec` during which Refresh waits (harmonics and waveform).
 */
export function useCommandFetch<T>(
  useCommandQuery: (deviceToken: string | undefined) => UseQueryResult<T>,
  lockoutSec: number,
) {
  const device = useSelectedDevice();
  const query = useCommandQuery(device?.token);
  const { left, start } = useCountdown(lockoutSec);

  // Arriving or picking a device fetches (the query key changes) and starts the lockout.
  useEffect(() => {
    if (device?.token) start();
  }, [device?.token, start]);

  const { refetch } = query;
  const refresh = useCallback(() => {
    start();
    void refetch();
  }, [start, refetch]);

  return { query, secondsLeft: left, refresh };
}

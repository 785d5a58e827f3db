import type { PowerQualityWeek } from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/http';
import { apiErrors } from '../../api/queryClient';

export const powerQualityKeys = {
  all: ['power-quality'] as const,
  week: (deviceToken: string, monday: string) => [...powerQualityKeys.all, deviceToken, monday] as const,
};

/** One week's EN 50160 verdict of an analyzer; the week by its Monday (`YYYY-MM-DD`, local). */
export function usePowerQualityWeekQuery(deviceToken: string | undefined, monday: string) {
  return useQuery({
    queryKey: powerQualityKeys.week(deviceToken ?? '', monday),
    enabled: deviceToken !== undefined,
    queryFn: async ({ signal }): Promise<PowerQualityWeek> =>
      (await call('powerQualityWeek', { token: deviceToken ?? '', week: monday }, { signal })).data,
    meta: apiErrors,
  });
}

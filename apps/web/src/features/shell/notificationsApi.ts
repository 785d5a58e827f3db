import { NOTIFICATIONS_KEPT } from '../../api/liveRules';
import { useQuery } from '@tanstack/react-query';
import { call, isDataNotFound } from '../../api/http';
import type { BellEntry } from './notificationText';

export const notificationKeys = {
  all: ['notifications'] as const,
  latest: (deviceToken: string) => [...notificationKeys.all, 'latest', deviceToken] as const,
};

/**
 * The latest notifications the server keeps for a device, so that the bell is not empty after a
 * reload. A failure leaves the bell to the live pushes without a message: the bell is secondary.
 */
export function useLatestNotificationsQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: notificationKeys.latest(deviceToken ?? ''),
    queryFn: async ({ signal }): Promise<BellEntry[]> => {
      try {
        const res = await call(
          'notifications',
          { device_token: deviceToken ?? '', limit: NOTIFICATIONS_KEPT },
          { signal },
        );
        return res.data;
      } catch (e) {
        if (isDataNotFound(e)) return [];
        throw e;
      }
    },
    enabled: !!deviceToken,
  });
}

import { NOTIFICATIONS_KEPT } from '../../api/liveRules';
import { NotificationListResponse } from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR_CODE, call, isDataNotFound } from '../../api/http';
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
        const res = NotificationListResponse.safeParse(
          await call<unknown>(
            'read',
            '/notifications',
            { device_token: deviceToken, limit: NOTIFICATIONS_KEPT },
            { signal },
          ),
        );
        if (!res.success) throw new ApiError(NETWORK_ERROR_CODE, 'unreadable notifications answer', 200);
        return res.data.data;
      } catch (e) {
        if (isDataNotFound(e)) return [];
        throw e;
      }
    },
    enabled: !!deviceToken,
  });
}

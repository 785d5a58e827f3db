import type { HistoryEntry } from '@meterportal/protocol';
import { useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_KEPT } from '../../api/liveRules';
import { call } from '../../api/http';
import { useAuthUser } from '../auth/session';

export const notificationKeys = {
  all: ['notifications'] as const,
  latest: (userToken: string) => [...notificationKeys.all, 'latest', userToken] as const,
  history: (userToken: string, filters: unknown, beforeId: number | undefined) =>
    [...notificationKeys.all, 'history', userToken, filters, beforeId ?? null] as const,
};

/**
 * The latest notifications the server keeps for the user's devices, so that the bell shows them
 * after a reload too. A failure leaves the bell to the live pushes without a message: the bell
 * is secondary.
 */
export function useLatestNotificationsQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: notificationKeys.latest(token),
    queryFn: async ({ signal }): Promise<HistoryEntry[]> => {
      const res = await call(
        'notificationHistory',
        { user_token: token, limit: NOTIFICATIONS_KEPT },
        { signal },
      );
      return res.data.items;
    },
    enabled: token !== '',
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http';
import { apiErrors } from '../../api/queryClient';
import { useAuthUser } from '../auth/session';
import { notificationKeys } from '../shell/notificationsApi';
import { historyRequest, type HistoryFilters } from './historyRules';

/** One page of the notification history; `beforeId` is the cursor (none: the newest page). */
export function useNotificationHistoryQuery(filters: HistoryFilters, beforeId: number | undefined) {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: notificationKeys.history(token, filters, beforeId),
    queryFn: async ({ signal }) =>
      (await call('notificationHistory', historyRequest(token, filters, beforeId), { signal })).data,
    enabled: token !== '',
    placeholderData: (previous) => previous,
    meta: apiErrors,
  });
}

/** Marks notifications read; the history and the bell read them again. */
export function useMarkReadMutation() {
  const qc = useQueryClient();
  const token = useAuthUser()?.token ?? '';
  return useMutation({
    mutationFn: async (ids: number[]) => {
      await call('notificationRead', { user_token: token, ids });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.all }),
    meta: apiErrors,
  });
}

import { ErrorCode, type IntegrationTokenEntry } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';
import { apiErrors } from '../../api/queryClient';
import { useAuthUser, userToken } from '../auth/session';

export const integrationKeys = {
  all: ['integration'] as const,
  tokens: (userToken: string) => [...integrationKeys.all, 'tokens', userToken] as const,
};

/** The user's integration tokens, newest first. */
export function useIntegrationTokensQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: integrationKeys.tokens(token),
    queryFn: async (): Promise<IntegrationTokenEntry[]> =>
      (await call('integrationTokenList', { user_token: token })).data,
    enabled: token !== '',
    meta: apiErrors,
  });
}

/** What the create dialog sends. */
export interface NewToken {
  name: string;
  /** MACs; null for every device of the user. */
  devices: string[] | null;
  /** Unix seconds; null for no expiry. */
  expiresAt: number | null;
}

/** Creates a token; the answer carries its secret, which is never shown again. */
export function useCreateIntegrationTokenMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: NewToken) =>
      (await call('integrationTokenCreate', { user_token: userToken(), ...v })).data,
    onSettled: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.InvalidRequest) ? 'integration.invalid' : 'common.api_communication_error',
    },
  });
}

export function useRevokeIntegrationTokenMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await call('integrationTokenRevoke', { user_token: userToken(), id });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
    meta: apiErrors,
  });
}

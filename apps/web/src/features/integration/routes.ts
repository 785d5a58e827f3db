import { AuthType, DEMO_LOGIN, type AuthUser } from '@meterportal/protocol';

/** Path of the integration tokens screen, apart so the shell does not load the screen. */
export const INTEGRATION_TOKENS_ROUTE = '/user/integration-tokens';

/** Every signed-in user may make integration tokens except the public demo account. */
export function canUseIntegrationTokens(user: Pick<AuthUser, 'id' | 'user'> | undefined | null): boolean {
  return !!user && !(user.id === AuthType.Local && user.user === DEMO_LOGIN);
}

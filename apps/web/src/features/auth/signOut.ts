import { queryClient } from '../../api/queryClient';
import { getConfig } from '../../api/config';
import { stopLive } from '../../api/live';
import { logout } from './calls';
import { authStore, endSession } from './session';

/** Ends the session on the server (best effort) and forgets everything held for the user. */
export async function signOut(): Promise<void> {
  const token = authStore.get().user?.token;
  const wasIdp = authStore.get().user?.id === 2;
  stopLive();
  endSession();
  queryClient.clear();
  if (token) await logout(token).catch(() => undefined);
  if (wasIdp) {
    const oidc = await import('./oidc');
    await oidc.forgetIdpUser(getConfig()).catch(() => undefined);
  }
}

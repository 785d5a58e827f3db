import { queryClient } from '../../api/queryClient';
import { getConfig } from '../../api/config';
import { stopLive } from '../../api/live';
import { sessionStore } from '../../api/storage';
import { selectDevice } from '../devices/selection';
import { logout } from './calls';
import { authStore, endSession } from './session';

/**
 * Ends the session on the server (best effort) and forgets everything held for the user,
 * including the last route and the selected device, so that the next person on this browser
 * starts afresh.
 */
export async function signOut(): Promise<void> {
  const token = authStore.get().user?.token;
  const wasIdp = authStore.get().user?.id === 2;
  stopLive();
  endSession();
  selectDevice(null);
  sessionStore.remove('lastRoute');
  queryClient.clear();
  if (token) await logout(token).catch(() => undefined);
  if (wasIdp) {
    const oidc = await import('./oidc');
    await oidc.forgetIdpUser(getConfig()).catch(() => undefined);
  }
}

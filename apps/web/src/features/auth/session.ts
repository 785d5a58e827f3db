import type { AuthUser, DeviceListEntry } from '@meterportal/protocol';
import { sessionStore } from '../../api/storage';
import { createStore, useStore } from '../../app/store';
import { isSessionValid } from './rules';

/** The signed-in user and the devices assigned to them. */
export interface Session {
  user: AuthUser | null;
  devices: DeviceListEntry[];
}

function restore(): Session {
  const user = sessionStore.get<AuthUser>('userToken') ?? null;
  const devices = sessionStore.get<DeviceListEntry[]>('deviceList') ?? [];
  return isSessionValid(user, Date.now()) ? { user, devices } : { user: null, devices: [] };
}

export const authStore = createStore<Session>(restore());

export function startSession(user: AuthUser, devices: DeviceListEntry[]): void {
  sessionStore.set('userToken', user);
  sessionStore.set('deviceList', devices);
  authStore.set({ user, devices });
}

export function updateDevices(devices: DeviceListEntry[]): void {
  sessionStore.set('deviceList', devices);
  authStore.set((s) => ({ ...s, devices }));
}

export function endSession(): void {
  sessionStore.remove('userToken');
  sessionStore.remove('deviceList');
  sessionStore.remove('renewal');
  authStore.set({ user: null, devices: [] });
}

/** The session token calls carry, '' when signed out (the server then answers 601). */
export function userToken(): string {
  return authStore.get().user?.token ?? '';
}

export function currentUser(): AuthUser | null {
  const { user } = authStore.get();
  return isSessionValid(user, Date.now()) ? user : null;
}

export function useAuthUser(): AuthUser | null {
  return useStore(authStore, (s) => s.user);
}

export function useDeviceList(): DeviceListEntry[] {
  return useStore(authStore, (s) => s.devices);
}

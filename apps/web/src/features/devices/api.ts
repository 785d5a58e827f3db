import { ErrorCode, type DeviceListEntry, type HierarchyMenu } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { call, isApiError, isDataNotFound, isUnreadable } from '../../api/http';
import { SUCCESS_DIALOG_MS, getModal } from '../../api/notify';
import { apiErrors, type ErrorMeta } from '../../api/queryClient';
import { refreshDeviceList } from '../auth/calls';
import { authStore, updateDevices, useAuthUser, useDeviceList, userToken } from '../auth/session';
import {
  initialSelection,
  rememberedDevice,
  selectDevice,
  selectedMacStore,
  selectionAfterRemoval,
  selectUnlessChosen,
} from './selection';
import { buildFromDevices, firstLeafMac, leaves, removeDevice, syncWithDevices } from './tree';

export const hierarchyKeys = {
  all: ['hierarchy'] as const,
  /**
   * The tree belongs to the person, not to one session token: a renewed sign-in (a new user
   * token) keeps the loaded tree, so the shell does not take the page down to load it again.
   */
  menu: (login: string) => [...hierarchyKeys.all, login] as const,
};

export const detailsKeys = {
  all: ['device-details'] as const,
  byToken: (deviceToken: string) => [...detailsKeys.all, deviceToken] as const,
};

async function saveMenu(token: string, menu: HierarchyMenu): Promise<void> {
  await call('hierarchySave', { token, menu: JSON.stringify(menu) });
}

/**
 * Loads the saved hierarchy and aligns it with the device list. When none is saved (610) it is
 * built from the device list and saved, so the next load finds it.
 */
async function loadMenu(token: string, devices: readonly DeviceListEntry[]): Promise<HierarchyMenu> {
  try {
    const res = await call('hierarchyRead', { token });
    const { menu, changed } = syncWithDevices(res.data, devices);
    if (changed) await saveMenu(token, menu);
    return menu;
  } catch (e) {
    // A saved tree the contract cannot read is rebuilt like a missing one.
    if (!isDataNotFound(e) && !isUnreadable(e)) throw e;
    const menu = buildFromDevices(devices);
    await saveMenu(token, menu);
    return menu;
  }
}

/** Whether a device has stored energy in the last week (a 610 answer says it has none). */
async function hasRecentData(device: DeviceListEntry): Promise<boolean> {
  const to = Math.floor(Date.now() / 1000);
  try {
    await call('energy', {
      token: device.token,
      data: 'E_I',
      phase: 'CUM',
      from: to - 7 * 86400,
      to,
      period: 'DAY',
    });
    return true;
  } catch (e) {
    if (isDataNotFound(e)) return false;
    throw e;
  }
}

/**
 * The tree, and with the first load the device selected after sign-in: the last one used, else
 * the first in the tree that has data. The shell waits for both before it shows a page.
 */
export function useHierarchyQuery() {
  const user = useAuthUser();
  const devices = useDeviceList();
  const login = user?.user ?? '';
  return useQuery({
    queryKey: hierarchyKeys.menu(login),
    queryFn: async () => {
      const startedWith = selectedMacStore.get();
      const list = authStore.get().devices;
      const menu = await loadMenu(userToken(), list);
      const macs = leaves(menu.nodes).flatMap((n) => n.data.mac ?? []);
      await selectUnlessChosen(startedWith, () =>
        initialSelection(list, macs, rememberedDevice(authStore.get().user?.user), hasRecentData),
      );
      return menu;
    },
    enabled: login !== '' && devices.length > 0,
    staleTime: Infinity,
    meta: {
      errorKey: (e: unknown) => (isDataNotFound(e) ? null : 'common.api_communication_error'),
    } satisfies ErrorMeta,
  });
}

/** Saves the whole tree; the cache takes the new tree at once so the panel never flickers. */
export function useSaveHierarchyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (menu: HierarchyMenu) => {
      const user = authStore.get().user;
      qc.setQueryData(hierarchyKeys.menu(user?.user ?? ''), menu);
      await saveMenu(user?.token ?? '', menu);
    },
    meta: apiErrors,
  });
}

/**
 * Removes the user's own assignment of a device. Success and failure are dialogs (seed 000
 * section 8); the success dialog closes itself after 2 s.
 */
export function useRemoveDeviceMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (device: DeviceListEntry) => {
      const { user } = authStore.get();
      if (!user) throw new Error('signed out');
      await call('unassignOwn', { token: device.token, login: user.user });
      const key = hierarchyKeys.menu(user.user);
      const current = qc.getQueryData<HierarchyMenu>(key);
      const devicesBefore = authStore.get().devices;
      const refreshed = await refreshDeviceList(user.token).catch(() => null);
      const devices = refreshed?.devices ?? authStore.get().devices.filter((d) => d.mac !== device.mac);
      updateDevices(devices);
      if (current) {
        const next = removeDevice(current, device.mac);
        qc.setQueryData(key, next);
        await saveMenu(user.token, next);
        // Removing another device leaves the selection (and the screen) as it is.
        selectDevice(
          selectionAfterRemoval(devicesBefore, selectedMacStore.get(), device.mac, firstLeafMac(next.nodes)),
        );
      }
    },
    onSuccess: () => {
      const modal = getModal();
      const dlg = modal?.success({ title: i18next.t('hierarchy.success_removed_device'), footer: null });
      if (dlg) setTimeout(() => dlg.destroy(), SUCCESS_DIALOG_MS);
    },
    onError: () => {
      void getModal()?.error({ title: i18next.t('common.api_communication_error') });
    },
  });
}

/** MRK and RK of a device, kW. */
export interface ContractLimits {
  MRK: number;
  RK: number;
}

export async function fetchDeviceDetails(deviceToken: string): Promise<ContractLimits> {
  return (await call('detailsRead', { token: deviceToken })).data;
}

/** Contract limits of a device; a failed load shows MRK as 0 (seed 000 section 8). */
export function useDeviceDetailsQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: detailsKeys.byToken(deviceToken ?? ''),
    queryFn: async () => {
      try {
        return await fetchDeviceDetails(deviceToken ?? '');
      } catch (e) {
        if (isApiError(e, ErrorCode.DataNotFound)) return { MRK: 0, RK: 0 };
        throw e;
      }
    },
    enabled: !!deviceToken,
    meta: apiErrors,
  });
}

export function useSaveDeviceDetailsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { token: string; MRK: number; RK: number }) => {
      await call('detailsSave', v);
      return v;
    },
    onSuccess: (v) => qc.setQueryData(detailsKeys.byToken(v.token), { MRK: v.MRK, RK: v.RK }),
    meta: apiErrors,
  });
}

export const clockKeys = {
  all: ['device-clock'] as const,
  byToken: (deviceToken: string) => [...clockKeys.all, deviceToken] as const,
};

/**
 * How far a meter's clock is off while its frames are refused for their time (null: right).
 * Asked again each minute while shown, since a meter may set its clock right at any time.
 */
export function useDeviceClockQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: clockKeys.byToken(deviceToken ?? ''),
    queryFn: async () => {
      return (await call('deviceClock', { token: deviceToken ?? '' })).data;
    },
    enabled: !!deviceToken,
    refetchInterval: 60_000,
    meta: apiErrors,
  });
}

import {
  ErrorCode,
  type DeviceListEntry,
  type FirmwareVersionEntry,
  type RouteAnswer,
  type UpgradeMessage,
} from '@meterportal/protocol';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, isApiError, upload } from '../../api/http';
import { apiErrors } from '../../api/queryClient';
import { subscribeData } from '../../api/live';
import { userToken } from '../auth/session';
import { isRunning } from './upgradeRules';

export const firmwareKeys = {
  all: ['firmware'] as const,
  versions: () => [...firmwareKeys.all, 'versions'] as const,
  status: (deviceToken: string) => [...firmwareKeys.all, 'status', deviceToken] as const,
};

/** Firmware state of one device: version, online, upgrades newest first. */
export type FirmwareStatus = RouteAnswer<'firmwareStatus'>['data'];

/** Every registered firmware version. */
export function useFirmwareVersionsQuery() {
  return useQuery({
    queryKey: firmwareKeys.versions(),
    queryFn: async ({ signal }): Promise<FirmwareVersionEntry[]> =>
      (await call('firmwareVersions', { user_token: userToken() }, { signal })).data,
    meta: apiErrors,
  });
}

/** Firmware status of each device, in the order given. */
export function useFirmwareStatusQueries(devices: readonly DeviceListEntry[]) {
  return useQueries({
    queries: devices.map((d) => ({
      queryKey: firmwareKeys.status(d.token),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<FirmwareStatus> =>
        (await call('firmwareStatus', { token: d.token }, { signal })).data,
      // A step missed while subscribing still shows: a running upgrade is read again now and then.
      refetchInterval: (q: { state: { data?: FirmwareStatus } }) => {
        const latest = q.state.data?.upgrades[0];
        return latest && isRunning(latest.state) ? 3000 : false;
      },
      meta: apiErrors,
    })),
  });
}

/** Registers a version (with an optional image); the version list is read again. */
export function useAddVersionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { deviceType: number; version: string; image: File | null }) => {
      const form = new FormData();
      form.append('user_token', userToken());
      form.append('device_type', String(v.deviceType));
      form.append('version', v.version);
      if (v.image) form.append('image', v.image, v.image.name);
      return (await upload('firmwareVersionAdd', form)).data;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: firmwareKeys.versions() }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.Conflict) ? 'common.object_exists' : 'common.api_communication_error',
    },
  });
}

/** Starts the upgrade of one device; its status is read again. */
export function useStartUpgradeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { token: string; fw: string }) => (await call('firmwareUpgrade', v)).data,
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: firmwareKeys.status(v.token) }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.DeviceNotResponding)
          ? 'common.device_not_responding'
          : 'common.api_communication_error',
    },
  });
}

/**
 * Follows the Upgrade messages of the devices that are upgrading, pushed over the websocket; an
 * outcome reads the device's status again. Answers the latest step per mac.
 */
export function useLiveUpgrades(
  devices: readonly DeviceListEntry[],
  statuses: readonly (FirmwareStatus | undefined)[],
): Record<string, UpgradeMessage> {
  const qc = useQueryClient();
  const [steps, setSteps] = useState<Record<string, UpgradeMessage>>({});
  const running = devices
    .filter((_d, i) => {
      const latest = statuses[i]?.upgrades[0];
      return latest !== undefined && isRunning(latest.state);
    })
    .map((d) => d.token)
    .join(' ');
  useEffect(() => {
    const tokens = running ? running.split(' ') : [];
    const offs = tokens.map((token) =>
      subscribeData(token, (msg) => {
        if (msg.topic !== 'Upgrade') return;
        const device = devices.find((d) => d.token === token);
        if (!device || msg.mac !== device.mac) return;
        setSteps((s) => ({ ...s, [msg.mac]: msg.data }));
        if (!isRunning(msg.data.state)) void qc.invalidateQueries({ queryKey: firmwareKeys.status(token) });
      }),
    );
    return () => offs.forEach((off) => off());
  }, [running, devices, qc]);
  return steps;
}

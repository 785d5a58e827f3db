import { useEffect, useRef } from 'react';
import { liveStore, subscribeData } from '../../api/live';
import type { LiveDataMessage } from '@meterportal/protocol';
import { isDataOf } from './dashboardRows';

/**
 * Subscribes the screen to the device's live data while it is shown (the subscription is turned
 * off again on leaving) and hands over each Data frame of that device, starting with the latest
 * one the app already holds.
 */
export function useLiveData(
  device: { mac: string; token: string } | undefined,
  onFrame: (msg: LiveDataMessage) => void,
): void {
  const handler = useRef(onFrame);
  handler.current = onFrame;
  const mac = device?.mac;
  const token = device?.token;
  useEffect(() => {
    if (!mac || !token) return;
    const latest = liveStore.get().latest;
    if (latest && isDataOf(latest, mac)) handler.current(latest);
    return subscribeData(token, (msg) => {
      if (isDataOf(msg, mac)) handler.current(msg);
    });
  }, [mac, token]);
}

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { setNotificationDevice, startLive, liveStore } from '../../api/live';
import { snackbar, toast } from '../../api/notify';
import { notificationKind, notificationText } from './notificationText';
import { routeAfterDeviceChange } from '../../app/routeMemory';
import { LOGIN_ROUTE } from '../../app/routeTitles';
import { useStore } from '../../app/store';
import { signOut } from '../auth/signOut';
import { useAuthUser } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';

/**
 * Shell-wide live behaviour: the socket for the signed-in user, the notification subscription
 * following the selected device, connection snackbars, and the device-change navigation.
 */
export function useLiveSession(): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthUser();
  const device = useSelectedDevice();
  const connected = useStore(liveStore, (s) => s.connected);
  const wasOffline = useRef(false);
  const lastMac = useRef<string | undefined>(undefined);
  const { pathname } = useLocation();
  const currentPath = useRef(pathname);
  currentPath.current = pathname;

  const token = user?.token;
  const login = user?.user;
  useEffect(() => {
    if (!token || !login) return;
    startLive(token, login, () => {
      void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
    });
  }, [token, login, navigate]);

  useEffect(() => {
    setNotificationDevice(device?.token ?? null);
  }, [device?.token]);

  useEffect(() => {
    const { everConnected } = liveStore.get();
    if (!everConnected) return;
    if (connected && wasOffline.current) {
      wasOffline.current = false;
      snackbar('success', t('shell.online'));
    } else if (!connected && !wasOffline.current) {
      wasOffline.current = true;
      snackbar('warning', t('shell.offline'));
    }
  }, [connected, t]);

  // Each pushed notification is also announced once, at the top right.
  const latestNotification = useStore(liveStore, (s) => s.notifications[0]);
  const announced = useRef<unknown>(undefined);
  useEffect(() => {
    if (!latestNotification || announced.current === latestNotification) return;
    announced.current = latestNotification;
    toast(
      'info',
      `${notificationKind(t, latestNotification.type)}: ${notificationText(t, latestNotification)}`,
    );
  }, [latestNotification, t]);

  // Another device keeps the current view when it has it; otherwise its type's default route.
  const mac = device?.mac;
  const type = device?.type;
  useEffect(() => {
    if (mac === undefined || type === undefined) return;
    if (lastMac.current !== undefined && lastMac.current !== mac) {
      const target = routeAfterDeviceChange(currentPath.current, type);
      if (target !== currentPath.current) void navigate(target);
    }
    lastMac.current = mac;
  }, [mac, type, navigate]);
}

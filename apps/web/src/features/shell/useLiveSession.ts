import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setNotificationDevice, startLive, liveStore } from '../../api/live';
import { snackbar, toast } from '../../api/notify';
import { defaultRouteForType } from '../../app/routeMemory';
import { LOGIN_ROUTE } from '../../app/routeTitles';
import { useStore } from '../../app/store';
import { signOut } from '../auth/signOut';
import { useAuthUser } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';

/**
 * Shell-wide live behaviour: the socket for the signed-in user, the notification subscription
 * following the selected device, connection snackbars, and the type-change navigation.
 */
export function useLiveSession(): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthUser();
  const device = useSelectedDevice();
  const connected = useStore(liveStore, (s) => s.connected);
  const wasOffline = useRef(false);
  const lastType = useRef<number | undefined>(undefined);

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
    const d = latestNotification.data;
    const kind = ['STATUS', 'ANOMALY', 'NILM', 'DISCONNECTOR'].includes(latestNotification.type)
      ? t(`shell.notification_types.${latestNotification.type}` as never)
      : t('shell.notifications');
    const text = [d.name, d.event, d.message].filter(Boolean).join(' · ');
    toast('info', text ? `${kind}: ${text}` : kind);
  }, [latestNotification, t]);

  const type = device?.type;
  useEffect(() => {
    if (type === undefined) return;
    if (lastType.current !== undefined && lastType.current !== type) void navigate(defaultRouteForType(type));
    lastType.current = type;
  }, [type, navigate]);
}

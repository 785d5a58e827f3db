import { ConfigProvider, message, notification, theme as antTheme } from 'antd';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useEffect, type ReactNode } from 'react';
import { registerToasts } from '../api/notify';
import { useUiLocale } from '../i18n';
import { useSettings } from './settings';

// Chart times and notifications use the localized L/LT/LTS formats.
dayjs.extend(localizedFormat);

/** Themed toast instances for code outside components (query hooks, the websocket client). */
function ToastBridge() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  useEffect(() => registerToasts(messageApi, notificationApi), [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}

interface AppProvidersProps {
  children: ReactNode;
}

export function AppProviders({ children }: AppProvidersProps) {
  const locale = useUiLocale();
  const mode = useSettings((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  return (
    <ConfigProvider
      locale={locale.antd}
      theme={{
        algorithm: mode === 'dark' ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
        token: { colorPrimary: '#1668dc', borderRadius: 6 },
      }}
    >
      <ToastBridge />
      {/* The query client is provided by the shell: the sign-in page does not load that library. */}
      {children}
    </ConfigProvider>
  );
}

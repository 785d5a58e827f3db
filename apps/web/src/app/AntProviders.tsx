import { ConfigProvider, message, notification, theme as antTheme } from 'antd';
import type { Locale } from 'antd/es/locale';
import enGB from 'antd/es/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useEffect, type ReactNode } from 'react';
import { registerToasts } from '../api/notify';
import { followLanguage } from '../i18n';
import type { Language } from './settings';
import { useSettings } from './settings';
import { createStore, useStore } from './store';

/**
 * The component library's providers, loaded with the signed-in shell (the sign-in page is built
 * without the library): theme, component and date locales, and the toast holders.
 */

// Chart times and notifications use the localized L/LT/LTS formats.
dayjs.extend(localizedFormat);

/** antd component texts; en-GB because its calendar starts weeks on Monday, as the seed asks. */
const antLocaleStore = createStore<Locale>(enGB);

async function loadLocales(lng: Language): Promise<void> {
  switch (lng) {
    case 'en':
      dayjs.locale('en-gb');
      antLocaleStore.set(enGB);
      return;
    case 'sk': {
      const [antd] = await Promise.all([import('antd/es/locale/sk_SK'), import('dayjs/locale/sk')]);
      dayjs.locale('sk');
      antLocaleStore.set(antd.default);
      return;
    }
    case 'de': {
      const [antd] = await Promise.all([import('antd/es/locale/de_DE'), import('dayjs/locale/de')]);
      dayjs.locale('de');
      antLocaleStore.set(antd.default);
      return;
    }
  }
}

/** Resolves once the locales of the language in use are loaded; later switches load theirs. */
export const localesReady: Promise<void> = followLanguage(loadLocales);

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

/** The library's theme (light or dark, the portal's blue) and the component locale. */
export function AntTheme({ children }: { children: ReactNode }) {
  const locale = useStore(antLocaleStore);
  const mode = useSettings((s) => s.theme);
  return (
    <ConfigProvider
      locale={locale}
      theme={{
        algorithm: mode === 'dark' ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
        token: { colorPrimary: '#1668dc', borderRadius: 6 },
      }}
    >
      {children}
    </ConfigProvider>
  );
}

/**
 * The toast holders: mounted beside the routes once the shell is loaded, and kept when the user
 * signs out, so a message raised on the way out is still seen on the sign-in page.
 */
export function ToastHost() {
  return (
    <AntTheme>
      <ToastBridge />
    </AntTheme>
  );
}

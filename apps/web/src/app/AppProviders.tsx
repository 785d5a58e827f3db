import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import type { Locale } from 'antd/es/locale';
import deDE from 'antd/es/locale/de_DE';
import enGB from 'antd/es/locale/en_GB';
import skSK from 'antd/es/locale/sk_SK';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import 'dayjs/locale/sk';
import { useEffect, type ReactNode } from 'react';
import { registerNotifier } from '../api/notify';
import { queryClient } from '../api/queryClient';
import { useSettings, type Language } from './settings';

// en-GB rather than en-US: its calendar starts weeks on Monday, as the seed asks.
// Chart times and notifications use the localized L/LT/LTS formats.
dayjs.extend(localizedFormat);

const ANT_LOCALES: Record<Language, Locale> = { en: enGB, sk: skSK, de: deDE };
const DAYJS_LOCALES: Record<Language, string> = { en: 'en-gb', sk: 'sk', de: 'de' };

function NotifierBridge() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => registerNotifier(message, notification, modal), [message, notification, modal]);
  return null;
}

interface AppProvidersProps {
  children: ReactNode;
}

export function AppProviders({ children }: AppProvidersProps) {
  const language = useSettings((s) => s.localization);
  const mode = useSettings((s) => s.theme);
  dayjs.locale(DAYJS_LOCALES[language]);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  return (
    <ConfigProvider
      locale={ANT_LOCALES[language]}
      theme={{
        algorithm: mode === 'dark' ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
        token: { colorPrimary: '#1668dc', borderRadius: 6 },
      }}
    >
      <AntApp>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

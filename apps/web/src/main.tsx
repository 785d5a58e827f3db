import './app/zodJitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadConfig } from './api/config';
import { AppProviders } from './app/AppProviders';
import { router } from './app/router';
import { SILENT_CALLBACK_PATH } from './features/auth/oidcPaths';
import { initI18n } from './i18n';
import './styles.css';

async function start(): Promise<void> {
  // Inside the hidden renewal frame the page only hands the provider's answer to its parent.
  if (window.location.pathname === SILENT_CALLBACK_PATH) {
    const config = await loadConfig();
    const { completeSilentRenewal } = await import('./features/auth/oidc');
    await completeSilentRenewal(config);
    return;
  }
  await Promise.all([loadConfig(), initI18n()]);
  const root = document.getElementById('root');
  if (!root) throw new Error('missing #root');
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();

import { Suspense, lazy, useEffect, type ComponentType, type ReactNode } from 'react';
import type * as ShellLayout from '../features/shell/MainLayout';
import { loadAreaTexts } from '../i18n';
import type * as AntProviders from './AntProviders';
import { useSettings } from './settings';
import { createStore, useStore } from './store';

/**
 * The signed-in shell's code: the component library's providers (with the locales of the language
 * in use), the shell's layout and the English texts of its areas. Fetched once, on the first of:
 * a session exists, the user starts typing on the sign-in page, the user signs in.
 */
type ShellChunks = [typeof AntProviders, typeof ShellLayout];
let shellChunks: Promise<ShellChunks> | undefined;
const shellRequested = createStore(false);

export function loadShell(): Promise<ShellChunks> {
  if (!shellChunks) {
    // Told after the current render: the request may come from a component being rendered.
    queueMicrotask(() => shellRequested.set(true));
    shellChunks = Promise.all([
      import('./AntProviders').then(async (m) => {
        await m.localesReady;
        return m;
      }),
      import('../features/shell/MainLayout'),
      loadAreaTexts(),
    ]).then(([providers, layout]): ShellChunks => [providers, layout]);
    // A failed download may be retried by the next request for the shell.
    shellChunks.catch(() => {
      shellChunks = undefined;
    });
  }
  return shellChunks;
}

// Without the shell's code there is nothing to hold toasts; the routes report that failure.
const ToastHost = lazy((): Promise<{ default: ComponentType }> =>
  loadShell().then(
    ([m]) => ({ default: m.ToastHost }),
    () => ({ default: () => null }),
  ),
);

interface AppProvidersProps {
  children: ReactNode;
}

/**
 * The light frame around every route: the colour scheme on the document; once the shell's code
 * is requested, the toast holders beside the routes (never around them, so that loading them
 * does not remount the page the user is typing on).
 */
export function AppProviders({ children }: AppProvidersProps) {
  const mode = useSettings((s) => s.theme);
  const toasts = useStore(shellRequested);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  return (
    <>
      {children}
      {toasts && (
        <Suspense fallback={null}>
          <ToastHost />
        </Suspense>
      )}
    </>
  );
}

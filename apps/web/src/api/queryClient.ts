import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { snackbar } from './notify';
import { isApiError } from './http';
import { ErrorCode } from '@meterportal/protocol';

/**
 * How a query or mutation reports its failure. Hooks declare it in `meta`, and the caches below
 * raise the message exactly once, so components never repeat try/catch + toast.
 */
export type ErrorMeta = {
  /** Translation key for a failure, or a function choosing one (null: stay silent). */
  errorKey?: string | ((error: unknown) => string | null);
};

/** The usual failure report: the API communication error, whatever went wrong. */
export const apiErrors: ErrorMeta = { errorKey: 'common.api_communication_error' };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

let onUnauthenticated: (() => void) | null = null;

/** Registers what to do when the server no longer accepts the session (sign out, go to login). */
export function setUnauthenticatedHandler(handler: (() => void) | null): void {
  onUnauthenticated = handler;
}

function report(meta: ErrorMeta | undefined, error: unknown): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (isApiError(error, ErrorCode.Unauthenticated)) {
    onUnauthenticated?.();
    return;
  }
  const spec = meta?.errorKey;
  if (spec === undefined) return;
  const key = typeof spec === 'function' ? spec(error) : spec;
  if (key) snackbar('error', i18next.t(key, { defaultValue: key }));
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => report(query.meta, error) }),
  mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => report(mutation.meta, error) }),
  defaultOptions: {
    queries: {
      // A device that is missing or a 610 will not appear by retrying; network hiccups might.
      retry: (count, error) => count < 2 && isApiError(error, 0),
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

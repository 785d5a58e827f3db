import { useSyncExternalStore } from 'react';

/** A tiny observable value: enough for the few pieces of client state the shell shares. */
export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T, onChange?: (value: T) => void): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const v = typeof next === 'function' ? (next as (prev: T) => T)(value) : next;
      if (Object.is(v, value)) return;
      value = v;
      onChange?.(v);
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Reads a store in a component; the selector must return a stable value for equal input. */
export function useStore<T, S = T>(store: Store<T>, selector: (value: T) => S = (v) => v as unknown as S): S {
  const subscribe = (l: () => void) => store.subscribe(l);
  return useSyncExternalStore(
    subscribe,
    () => selector(store.get()),
    () => selector(store.get()),
  );
}

import { TooManyReads } from '../http/errors';

/**
 * At most `concurrent` costly reads per session at a time; up to `waiting` more wait for a slot in
 * order of arrival, and a read beyond those is refused with TooManyReads. One session cannot then
 * hold the database for everyone else, and a person clicking through ranges is only kept waiting.
 *
 * With `global`, at most that many admitted reads run in the whole process, the others waiting in
 * order of arrival: SQLite reads synchronously, so every read in progress adds its statements to
 * what a light request may find ahead of it on the event loop, whatever session it belongs to.
 */
export function sessionReadLimiter(opts: { concurrent: number; waiting: number; global?: number }) {
  const sessions = new Map<string, { running: number; queue: (() => void)[] }>();
  const all = { running: 0, queue: [] as (() => void)[] };
  const globalCap = opts.global ?? Number.POSITIVE_INFINITY;
  async function globalSlot(): Promise<void> {
    if (all.running < globalCap) {
      all.running += 1;
      return;
    }
    await new Promise<void>((resolve) => all.queue.push(resolve));
  }
  function releaseGlobal(): void {
    const next = all.queue.shift();
    if (next) next();
    else all.running -= 1;
  }
  return {
    async run<T>(sessionKey: string, read: () => Promise<T>): Promise<T> {
      let s = sessions.get(sessionKey);
      if (!s) {
        s = { running: 0, queue: [] };
        sessions.set(sessionKey, s);
      }
      const state = s;
      if (state.running < opts.concurrent) {
        state.running += 1;
      } else {
        if (state.queue.length >= opts.waiting) throw new TooManyReads();
        // The read that finishes hands its slot straight to the first one waiting.
        await new Promise<void>((resolve) => state.queue.push(resolve));
      }
      try {
        await globalSlot();
        try {
          return await read();
        } finally {
          releaseGlobal();
        }
      } finally {
        const next = state.queue.shift();
        if (next) next();
        else if (--state.running === 0) sessions.delete(sessionKey);
      }
    },
    /** Reads running and waiting for a session, for tests and metrics. */
    load(sessionKey: string): { running: number; waiting: number } {
      const s = sessions.get(sessionKey);
      return { running: s?.running ?? 0, waiting: s?.queue.length ?? 0 };
    },
    /** Reads running and waiting for a process-wide slot. */
    loadAll(): { running: number; waiting: number } {
      return { running: all.running, waiting: all.queue.length };
    },
  };
}
/** Per-session limit on concurrent costly reads. */
export type SessionReadLimiter = ReturnType<typeof sessionReadLimiter>;

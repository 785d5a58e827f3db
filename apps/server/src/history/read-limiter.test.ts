import { describe, expect, it } from 'vitest';
import { TooManyReads } from '../http/errors';
import { sessionReadLimiter } from './read-limiter';

/** A read that finishes when told to. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { open, read: () => done.then(() => 'read') };
}

describe('sessionReadLimiter', () => {
  it('runs two reads of a session at once, queues four and refuses the seventh', async () => {
    const limiter = sessionReadLimiter({ concurrent: 2, waiting: 4 });
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run('s1', () => {
        started.push(i);
        return g.read();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.load('s1')).toEqual({ running: 2, waiting: 4 });
    await expect(limiter.run('s1', () => Promise.resolve('x'))).rejects.toBeInstanceOf(TooManyReads);
    // Another session is not held up by the first one.
    await expect(limiter.run('s2', () => Promise.resolve('other'))).resolves.toBe('other');

    gates[0]!.open();
    await runs[0];
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await expect(Promise.all(runs)).resolves.toEqual(Array(6).fill('read'));
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limiter.load('s1')).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a read that failed', async () => {
    const limiter = sessionReadLimiter({ concurrent: 1, waiting: 0 });
    await expect(limiter.run('s', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run('s', () => Promise.resolve(1))).resolves.toBe(1);
  });

  it('runs at most `global` reads in the process, across sessions, the others in order of arrival', async () => {
    const limiter = sessionReadLimiter({ concurrent: 2, waiting: 4, global: 2 });
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(`session-${i}`, () => {
        started.push(i);
        return g.read();
      }),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1]);
    expect(limiter.loadAll()).toEqual({ running: 2, waiting: 3 });
    // Each session has its own read admitted; only the process-wide slots are full.
    expect(limiter.load('session-4')).toEqual({ running: 1, waiting: 0 });
    gates[1]!.open();
    await runs[1];
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await expect(Promise.all(runs)).resolves.toEqual(Array(5).fill('read'));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.loadAll()).toEqual({ running: 0, waiting: 0 });
  });

  it('hands the process-wide slot of a failed read to the next one', async () => {
    const limiter = sessionReadLimiter({ concurrent: 1, waiting: 1, global: 1 });
    const failing = limiter.run('a', () => Promise.reject(new Error('boom')));
    const next = limiter.run('b', () => Promise.resolve('b'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('b');
    expect(limiter.loadAll()).toEqual({ running: 0, waiting: 0 });
  });
});

// Asks every online analyzer for its voltage spectrum once a period, through the same command
// round trip as the Harmonics screen, and keeps it as the 10-minute values EN 50160 judges.
// Commands go out a few at a time and wait on the broker, never on ingest; a device that does
// not answer is counted and logged, and nothing is stored for it.
import { Counter, type Registry } from 'prom-client';
import type { CommandReply } from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DeviceCommand } from '../precision/commands.service';
import { HARMONIC_ORDERS } from './harmonics-fns';
import type { HarmonicsRepository, PhaseSpectrum } from './harmonics.repository';

/** Where the poller writes what went wrong. */
interface PollLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the poller needs. */
export interface HarmonicsPollerDeps {
  repo: Pick<HarmonicsRepository, 'onlineAnalyzers' | 'addSpectrum'>;
  /** Sends a command to a device and answers its ok reply; rejects when it does not answer or refuses. */
  send(mac: string, command: DeviceCommand): Promise<CommandReply>;
  clock: Clock;
  registry: Registry;
  /** Time between two polls of an analyzer, ms. */
  periodMs: number;
  /** Analyzers asked at the same time. */
  concurrency: number;
}

/** One polled answer's voltage spectrum per phase, orders 2 to 25; null for a phase without values. */
export function voltageSpectra(reply: CommandReply): (PhaseSpectrum | null)[] | null {
  if (!reply.ok || reply.cmd !== 'HARMONICS') return null;
  const u = reply.result.U;
  const phases = [u.L1.values, u.L2.values, u.L3.values].map((values) =>
    values.length < 2 ? null : HARMONIC_ORDERS.map((h) => (h - 1 < values.length ? values[h - 1]! : null)),
  );
  return phases.every((p) => p === null) ? null : phases;
}

/** Polls the online analyzers' harmonic spectra; `start` schedules it, `pollOnce` runs one round. */
export function harmonicsPoller(deps: HarmonicsPollerDeps) {
  const { repo, clock, periodMs } = deps;
  const polls = new Counter({
    name: 'power_quality_harmonic_polls_total',
    help: 'Harmonic spectra asked of online analyzers, by result: stored, or failed (no answer, refused, unreadable, not stored)',
    labelNames: ['result'] as const,
    registers: [deps.registry],
  });

  async function pollDevice(d: { id: number; mac: string }, log?: PollLog): Promise<boolean> {
    const atSec = Math.floor(clock.nowMs() / 1000);
    try {
      const spectra = voltageSpectra(await deps.send(d.mac, { cmd: 'HARMONICS' }));
      if (!spectra) throw new Error('the answer holds no voltage spectrum');
      await repo.addSpectrum(d.id, atSec, spectra);
      polls.inc({ result: 'stored' });
      return true;
    } catch (err) {
      polls.inc({ result: 'failed' });
      log?.warn({ mac: d.mac, err }, 'harmonic spectrum not polled');
      return false;
    }
  }

  /** Asks every online analyzer once, a few at a time; answers how many were stored and failed. */
  async function pollOnce(log?: PollLog): Promise<{ stored: number; failed: number }> {
    const queue = [...(await repo.onlineAnalyzers())];
    const result = { stored: 0, failed: 0 };
    const worker = async () => {
      for (let d = queue.shift(); d; d = queue.shift()) {
        if (await pollDevice(d, log)) result.stored++;
        else result.failed++;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, deps.concurrency) }, worker));
    return result;
  }

  return {
    pollOnce,
    /**
     * Polls in the middle of each period (counted from the epoch), so with the default 10 minutes
     * every 10-minute interval gets one spectrum; a round still running when the next is due is
     * not doubled. Answers the stop function.
     */
    start(opts: { log: PollLog }): () => Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<unknown> | null = null;
      let stopped = false;
      const schedule = () => {
        const now = clock.nowMs();
        const due = Math.floor(now / periodMs) * periodMs + periodMs / 2;
        timer = setTimeout(tick, due > now ? due - now : due + periodMs - now);
        timer.unref();
      };
      const tick = () => {
        if (stopped) return;
        if (!running)
          running = pollOnce(opts.log)
            .catch((err: unknown) => opts.log.error({ err }, 'harmonic polling failed'))
            .finally(() => {
              running = null;
            });
        schedule();
      };
      schedule();
      return async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
      };
    },
  };
}
/** The harmonic spectrum poller. */
export type HarmonicsPoller = ReturnType<typeof harmonicsPoller>;

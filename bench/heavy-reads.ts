// Requests of the HTTP benchmarks that read through a running portal: one timed POST with a
// session cookie, and a light request's latency while sessions keep costly reads in flight.
import { PROFILE_QUANTITIES } from '@meterportal/protocol';
import { startOfDay } from '../apps/server/src/history/calendar';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { percentile, r2 } from './stats';

/** A timed POST to the portal at `base` with a session cookie; the answer's bytes are kept. */
export async function post(
  base: string,
  cookie: string,
  url: string,
  body: object,
): Promise<{ ms: number; body: Buffer; status: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${cookie}` },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { ms: performance.now() - started, body: bytes, status: res.status };
}

/** The costly read of these benchmarks: every quantity of a device over the year up to `toSec`. */
export function yearProfileBody(token: string, toSec: number, tz: string) {
  return {
    token,
    data: PROFILE_QUANTITIES.join(','),
    phase: 'L1,L2,L3',
    from: startOfDay(toSec - 365 * 86400, tz),
    to: toSec,
    format: 'H',
    cumulative: true,
  };
}

/** Sessions keeping a costly read in flight while the light requests are timed. */
export const HEAVY_SESSIONS = 10;
/** Light requests timed (BENCH_LIGHT_REQUESTS). */
export const LIGHT_REQUESTS = Number(process.env.BENCH_LIGHT_REQUESTS ?? 200);

interface Session {
  cookie: string;
  devices: { token: string }[];
}

/**
 * The latency of LIGHT_REQUESTS device-detail reads from one session while HEAVY_SESSIONS
 * sessions each keep one `heavyBody` profile read in flight at all times. `strict` fails on any
 * heavy answer but 200; otherwise the heavy answers are counted by status (refusals included).
 */
export async function lightUnderHeavy(opts: {
  base: string;
  session: () => Promise<Session>;
  heavyBody: object;
  strict: boolean;
}) {
  const light = await opts.session();
  const heavySessions = await Promise.all(Array.from({ length: HEAVY_SESSIONS }, () => opts.session()));
  let running = true;
  let heavyDone = 0;
  const heavyStatuses = new Map<number, number>();
  const heavy = heavySessions.map(async (s) => {
    while (running) {
      const r = await post(opts.base, s.cookie, '/api/read/profile', opts.heavyBody);
      if (opts.strict && r.status !== 200) throw new Error(`heavy read answered ${r.status}`);
      heavyStatuses.set(r.status, (heavyStatuses.get(r.status) ?? 0) + 1);
      heavyDone += 1;
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  const ms: number[] = [];
  for (let i = 0; i < LIGHT_REQUESTS; i++) {
    const r = await post(opts.base, light.cookie, '/api/read/devices/details', {
      token: light.devices[0]!.token,
    });
    if (r.status !== 200) throw new Error(`light request answered ${r.status}`);
    ms.push(r.ms);
  }
  running = false;
  await Promise.all(heavy);
  return {
    lightRequest: 'POST /api/read/devices/details',
    requests: ms.length,
    p50Ms: r2(percentile(ms, 50)),
    p99Ms: r2(percentile(ms, 99)),
    maxMs: r2(Math.max(...ms)),
    heavySessions: HEAVY_SESSIONS,
    heavyReadsFinished: heavyDone,
    heavyStatuses: Object.fromEntries(heavyStatuses),
  };
}

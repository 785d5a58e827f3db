// Requests of the HTTP benchmarks that read through a running portal: one timed POST with a
// session cookie, and a light request's latency while sessions keep costly reads in flight.
import { Worker } from 'node:worker_threads';
import { PROFILE_QUANTITIES } from '@meterportal/protocol';
import { startOfDay } from '../apps/server/src/history/calendar';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { measureRoute } from './http-measure';

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
 * sessions each keep one `heavyBody` profile read in flight at all times. Both kinds of client run
 * in worker threads of their own (heavy-client.mjs, http-client.mjs), as browsers on other machines
 * would: the server's event loop carries only the server. `strict` fails on any heavy answer but
 * 200; otherwise the heavy answers are counted by status (refusals included).
 */
export async function lightUnderHeavy(opts: {
  base: string;
  session: () => Promise<Session>;
  heavyBody: object;
  strict: boolean;
}) {
  const light = await opts.session();
  const heavySessions = await Promise.all(Array.from({ length: HEAVY_SESSIONS }, () => opts.session()));
  const heavy = new Worker(new URL('./heavy-client.mjs', import.meta.url), {
    workerData: {
      url: `${opts.base}/api/read/profile`,
      cookies: heavySessions.map((s) => `${SESSION_COOKIE}=${s.cookie}`),
      body: JSON.stringify(opts.heavyBody),
      strict: opts.strict,
    },
  });
  const heavyResult = new Promise<{ statuses: Record<string, number>; failure: string | null }>(
    (resolve, reject) => {
      heavy.once('message', resolve);
      heavy.once('error', reject);
    },
  );
  await new Promise((r) => setTimeout(r, 300));
  const body = JSON.stringify({ token: light.devices[0]!.token });
  const timed = await measureRoute({
    base: opts.base,
    route: 'devices/details',
    cookie: `${SESSION_COOKIE}=${light.cookie}`,
    bodies: Array.from({ length: LIGHT_REQUESTS }, () => body),
  });
  heavy.postMessage('stop');
  const { statuses, failure } = await heavyResult;
  await heavy.terminate();
  if (failure) throw new Error(failure);
  return {
    lightRequest: 'POST /api/read/devices/details',
    requests: timed.requests,
    p50Ms: timed.p50Ms,
    p99Ms: timed.p99Ms,
    maxMs: timed.maxMs,
    heavySessions: HEAVY_SESSIONS,
    heavyReadsFinished: Object.values(statuses).reduce((a, b) => a + b, 0),
    heavyStatuses: statuses,
  };
}

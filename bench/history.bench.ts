// Latency of the history API through HTTP over a store holding a year of quarter-hour energy for
// 100 devices (and two days of one-minute profiles), on SQLite and, with BENCH_DATABASE_URL, on
// PostgreSQL. Also live delivery latency to 1,000 websocket clients.
import WebSocket from 'ws';
import type { LiveFrame } from '@meterportal/protocol';
import type { Database } from '../apps/server/src/db/database';
import { quickSession } from '../apps/server/src/test/harness';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { fromWall, startOfDay } from '../apps/server/src/history/calendar';
import * as portal from './portal-store';
import { percentile, r2, report } from './stats';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const TZ = portal.BENCH_TZ;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

async function scenario(database: Database, label: string) {
  const store = await portal.benchStore(database, portal.benchFleet(0, DEVICES), { LIVE_RECHECK_MS: '5000' });
  const { services, userId, devices } = store;
  const { seconds: backfillSec, ...fill } = await portal.backfillStore(
    database,
    store,
    { quarterDays: 365, minuteDays: 2 },
    label,
  );

  const { app, base } = await portal.startPortal(services);
  const client = await quickSession(services, userId);
  const nowSec = Math.floor(Date.now() / 1000);
  const yesterday = startOfDay(nowSec - 86400, TZ);
  const yearFrom = startOfDay(nowSec - 365 * 86400, TZ);
  const monthFrom = (() => {
    const d = new Date(yearFrom * 1000);
    return fromWall(TZ, d.getUTCFullYear(), d.getUTCMonth() + 2, 1);
  })();

  // Requests go out one after another from a worker thread (bench/http-client.mjs).
  const measure = (name: string, body: (token: string) => object) =>
    portal.measureDevices(base, client, name, REQUESTS, body);

  const all = 'U,I,P,Q,S,E_I,E_E,Q_E,S_E,F,PF,DF_U,DF_I';
  const results = {
    dayProfileAllQuantities: await measure('profile', (token) => ({
      token,
      data: all,
      phase: 'L1,L2,L3',
      from: yesterday,
      to: yesterday + 86400,
      format: 'H',
      cumulative: true,
    })),
    yearOfDailyEnergy: await measure('energy', (token) => ({
      token,
      data: 'E_I,E_E',
      phase: 'CUM',
      from: yearFrom,
      to: nowSec,
      period: 'DAY',
      format: 'H',
    })),
    yearOfMonthlyEnergy: await measure('energy', (token) => ({
      token,
      data: 'E_I,E_E',
      phase: 'CUM',
      from: monthFrom,
      to: nowSec,
      period: 'MONTH',
      format: 'H',
    })),
    dayOfQuarterHourMaximum: await measure('energy', (token) => ({
      token,
      data: 'E_I,E_E',
      phase: 'CUM',
      from: yesterday,
      to: yesterday + 86400,
      period: '15MIN',
      maximum: true,
      format: 'H',
    })),
  };

  // Live delivery: 1,000 sockets watch one device; each frame is stamped when handed to the hub.
  const wsUrl = base.replace('http', 'ws') + '/ws';
  const mac = devices[0]!.mac;
  const sockets: WebSocket[] = [];
  const latencies: number[] = [];
  for (let i = 0; i < 1000; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        const ws = new WebSocket(wsUrl, { headers: { cookie: `${SESSION_COOKIE}=${client.cookie}` } });
        await new Promise((r) => ws.once('open', r));
        ws.on('message', (raw: Buffer) => {
          const m = JSON.parse(raw.toString()) as { topic?: string; data?: { sentAt?: number } };
          if (m.topic === 'Data' && m.data?.sentAt !== undefined)
            latencies.push(performance.now() - m.data.sentAt);
        });
        ws.send(JSON.stringify({ deviceToken: client.devices[0]!.token, data: true }));
        ws.send(JSON.stringify({ userToken: client.token, state: true }));
        sockets.push(ws);
      }),
    );
  }
  await new Promise((r) => setTimeout(r, 2000));
  for (let f = 0; f < 30; f++) {
    // Only ts and sentAt are read on arrival; the hub forwards the frame as it is.
    const frame = { ts: nowSec + f, sentAt: performance.now() } as unknown as LiveFrame;
    services.live.bus.publish(mac, { kind: 'data', topic: 'Data', payload: frame });
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const live = {
    sockets: sockets.length,
    frames: 30,
    delivered: latencies.length,
    p50Ms: r2(percentile(latencies, 50)),
    p99Ms: r2(percentile(latencies, 99)),
  };
  for (const s of sockets) s.close();
  await app.close();
  return { backfill: { ...fill, seconds: r2(backfillSec) }, ...results, liveDeliveryTo1000Sockets: live };
}

const stores = await portal.overEachDatabase(
  'history',
  scenario,
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
);
const out: Record<string, unknown> = { devices: DEVICES, ...stores };
out.targets = {
  energyYearP99Ms: 20,
  dayProfileP99Ms: 30,
  dayProfilePostgresP99Ms: 50,
  liveDeliveryP99Ms: 100,
};
report('history', out);
process.exit(0);

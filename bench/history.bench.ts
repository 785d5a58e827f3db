// Latency of the history API through HTTP over a store holding a year of quarter-hour energy for
// 100 devices (and two days of one-minute profiles), on SQLite and, with BENCH_DATABASE_URL, on
// PostgreSQL. Also live delivery latency to 1,000 websocket clients.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { LiveFrame } from '@meterportal/protocol';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase, dropPgSchema, type Database } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import { createServices } from '../apps/server/src/services';
import { buildApp } from '../apps/server/src/http/app';
import { systemClock } from '../apps/server/src/clock';
import { addDevice, addUser, assign, quickSession } from '../apps/server/src/test/harness';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { backfillHistory } from '../apps/server/src/telemetry/backfill';
import { createTelemetryRepository } from '../apps/server/src/telemetry/telemetry.repository';
import { fromWall, startOfDay } from '../apps/server/src/history/calendar';
import { percentile, r2, report } from './stats';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const TZ = 'Europe/Bratislava';
const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

async function scenario(database: Database, label: string) {
  await migrateToLatest(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', TZ, WEB_DIST: '/nonexistent', LIVE_RECHECK_MS: '5000' });
  const services = await createServices({ config, database, clock: systemClock });
  const userId = await addUser(services, 'bench', 'bench-secret');
  const devices: { id: number; mac: string }[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const mac = `02-BE-00-00-${String(Math.floor(i / 100)).padStart(2, '0')}-${String(i % 100).padStart(2, '0')}`;
    const id = await addDevice(services, mac, 4, `Bench ${i}`);
    await assign(services, userId, id, true);
    devices.push({ id, mac });
  }
  const t0 = performance.now();
  const fill = await backfillHistory(
    { repository: createTelemetryRepository(database, { tz: TZ }), clock: systemClock, logger: quiet },
    devices.map((d) => ({ id: d.id, mac: d.mac, type: 4 as const })),
    { quarterDays: 365, minuteDays: 2 },
  );
  const backfillSec = (performance.now() - t0) / 1000;
  console.log(
    `${label}: backfilled ${fill.quarterRows} quarter rows and ${fill.minuteRows} minute rows in ${backfillSec.toFixed(1)} s`,
  );

  const app = await buildApp(services, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = await quickSession(services, userId);
  const nowSec = Math.floor(Date.now() / 1000);
  const yesterday = startOfDay(nowSec - 86400, TZ);
  const yearFrom = startOfDay(nowSec - 365 * 86400, TZ);
  const monthFrom = (() => {
    const d = new Date(yearFrom * 1000);
    return fromWall(TZ, d.getUTCFullYear(), d.getUTCMonth() + 2, 1);
  })();

  // Requests go out one after another from a worker thread (bench/http-client.mjs).
  async function measure(name: string, body: (token: string) => object) {
    const bodies = Array.from({ length: REQUESTS }, (_, i) =>
      JSON.stringify(body(client.devices[i % client.devices.length]!.token)),
    );
    const worker = new Worker(new URL('./http-client.mjs', import.meta.url), {
      workerData: { url: `${base}/api/read/${name}`, cookie: `${SESSION_COOKIE}=${client.cookie}`, bodies },
    });
    const { times, bytes } = await new Promise<{ times: number[]; bytes: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    return {
      requests: REQUESTS,
      p50Ms: r2(percentile(times, 50)),
      p99Ms: r2(percentile(times, 99)),
      responseBytes: bytes,
    };
  }

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

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
const out: Record<string, unknown> = { devices: DEVICES };
{
  const database = await openDatabase({ sqliteFile: path.join(tmp, 'bench.db') });
  out.sqlite = await scenario(database, 'sqlite');
  await database.close();
}
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ url: pgUrl, pgSchema: schema });
  out.postgres = await scenario(database, 'postgres');
  await database.close();
  await dropPgSchema(pgUrl, schema);
}
fs.rmSync(tmp, { recursive: true, force: true });
out.targets = {
  energyYearP99Ms: 20,
  dayProfileP99Ms: 30,
  dayProfilePostgresP99Ms: 50,
  liveDeliveryP99Ms: 100,
};
report('history', out);
process.exit(0);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import { OnlineStatus, type MeterInputIn } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  callMultipart,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';
import type { LiveEvent } from '../live/bus';
import type { TelemetryDB } from '../db/schema.telemetry';
import { tinyPng } from './testImages';

const BENCH = '02-4D-50-00-00-03';
const SILENT = '02-4D-50-00-00-13';
const R = '/api/read/applied-precision';
const W = '/api/write/applied-precision';

const meter = (over: Partial<MeterInputIn> = {}): MeterInputIn => ({
  SNUM: '99900001',
  CONSTANT: '2000',
  CLASS: '0.5',
  CONTYPE: 1,
  ELM_OUTPUT_TYPE: 1,
  MENERGYTYPE: 0,
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  ENERMETHOD: 0,
  ...over,
});

interface Row {
  ID_meter: number;
  IDN: string;
  SNUM: string;
  NOTE1: string;
  LPCOUNT: number;
}

describe.each(DIALECTS)(
  'meter database exchange with a device over the embedded broker on $name',
  (dialect) => {
    let t: TestApp;
    let runtime: Runtime;
    let alice: Client;
    let sim: SimDevice;
    let ids: Record<string, number>;
    const tok = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
    const list = async (): Promise<Row[]> => {
      const r = await call(t.app, 'POST', `${R}/meters`, { device_token: tok(BENCH) }, alice);
      return r.statusCode === 200 ? (r.json().data as Row[]) : [];
    };
    const exchange = (path: 'upload-database' | 'download-database', mac = BENCH) =>
      call(t.app, 'POST', `${W}/${path}`, { device_token: tok(mac), meters: true }, alice);
    const waitFor = async (what: () => Promise<boolean>, ms = 15_000) => {
      for (const end = Date.now() + ms; Date.now() < end;) {
        if (await what()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('condition not met in time');
    };

    const waitOnline = () =>
      waitFor(async () => {
        const db = t.services.database.db.withTables<TelemetryDB>();
        return (
          (
            await db
              .selectFrom('device_states')
              .select('status')
              .where('device_id', '=', ids[BENCH]!)
              .executeTakeFirst()
          )?.status === OnlineStatus.Online
        );
      });

    beforeAll(async () => {
      t = await createTestApp(dialect, {
        env: { DEMO: 'false', ROLES: 'read,write,ingest' },
        commandTimeoutMs: 1500,
      });
      const quiet = {
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
        debug: () => undefined,
        fatal: () => undefined,
        trace: () => undefined,
        child: () => quiet,
        level: 'silent',
        silent: () => undefined,
      } as never;
      runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
      const id = await addUser(t.services, 'alice', 'alice-secret');
      ids = {};
      for (const mac of [BENCH, SILENT]) {
        ids[mac] = await addDevice(t.services, mac, 3);
        await assign(t.services, id, ids[mac], true);
      }
      const creds = await runtime.link!.credentials.issue(ids[BENCH]!, BENCH);
      // Tests every few seconds, so a stored result arrives while this file runs.
      sim = startDevice({
        brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
        mac: BENCH,
        type: 3,
        ...creds,
        outages: false,
        accuTest: { periodSec: 2, durationSec: 2 },
      });
      await sim.connected;
      alice = await quickSession(t.services, id);
      // The silent analyzer reports online but never answers; the bench must be online in the store.
      const db = t.services.database.db.withTables<TelemetryDB>();
      await db
        .insertInto('device_states')
        .values({
          device_id: ids[SILENT]!,
          status: OnlineStatus.Online,
          connection: 'BT_MQTT_DB',
          fw: null,
          model: null,
          changed_at_ms: 0,
        })
        .execute();
      await waitOnline();
    }, 60_000);
    afterAll(async () => {
      await sim.stop();
      await runtime.stop();
      await t.close();
    });

    it("loads the device's factory database into the portal", async () => {
      expect(await list()).toEqual([]);
      const r = await exchange('download-database');
      expect(r.json(), r.body).toEqual({ status: 'OK', data: { count: 2 } });
      const rows = await list();
      expect(rows.map((m) => [m.IDN, m.SNUM]).sort()).toEqual([
        ['1', '40012345'],
        ['2', '71100042'],
      ]);
    });

    it('sends the edited list to the device (which reports DATABASE_UPDATE meanwhile) and reads the same back', async () => {
      const statuses: string[] = [];
      const off = t.services.live.bus.subscribe(BENCH, (e: LiveEvent) => {
        if (e.kind === 'state') statuses.push(e.state.status);
      });
      const rows = await list();
      const first = rows.find((m) => m.IDN === '1')!;
      const second = rows.find((m) => m.IDN === '2')!;
      const img = await callMultipart(
        t.app,
        `${W}/images`,
        { device_token: tok(BENCH), meter_ID: String(first.ID_meter) },
        [{ name: 'front.png', type: 'image/png', bytes: tinyPng() }],
        alice,
      );
      expect(img.statusCode, img.body).toBe(200);
      const added = await call(
        t.app,
        'POST',
        `${W}/meters/add`,
        { device_token: tok(BENCH), meter: meter() },
        alice,
      );
      expect(added.statusCode, added.body).toBe(200);
      const del = await call(
        t.app,
        'DELETE',
        `${W}/meters`,
        { device_token: tok(BENCH), ID_meter: second.ID_meter },
        alice,
      );
      expect(del.statusCode).toBe(200);
      const edit = await call(
        t.app,
        'PUT',
        `${W}/meters`,
        {
          device_token: tok(BENCH),
          ID_meter: first.ID_meter,
          meter: { ...meter({ SNUM: '40012345', NOTE1: 'seal renewed' }) },
        },
        alice,
      );
      expect(edit.statusCode).toBe(200);

      const up = await exchange('upload-database');
      expect(up.json(), up.body).toEqual({ status: 'OK', data: { count: 2 } });
      await waitFor(async () =>
        Promise.resolve(statuses.includes('DATABASE_UPDATE') && statuses.at(-1) === 'ONLINE'),
      );
      off();
      // Ingest commits once a second: wait until the store, too, has the device online again.
      await waitOnline();

      const down = await exchange('download-database');
      expect(down.json()).toEqual({ status: 'OK', data: { count: 2 } });
      const after = await list();
      expect(after.map((m) => [m.IDN, m.SNUM, m.NOTE1]).sort()).toEqual([
        ['1', '40012345', 'seal renewed'],
        ['3', '99900001', ''],
      ]);
      // Matched by IDN: the same portal id, the image still there.
      expect(after.find((m) => m.IDN === '1')!.ID_meter).toBe(first.ID_meter);
      const images = await call(
        t.app,
        'POST',
        `${R}/images/list`,
        { device_token: tok(BENCH), ID_meter: first.ID_meter },
        alice,
      );
      expect(images.json().data).toHaveLength(1);
    });

    it("drops from the portal what the device's database no longer holds, images included", async () => {
      const extra = await call(
        t.app,
        'POST',
        `${W}/meters/add`,
        { device_token: tok(BENCH), meter: meter({ SNUM: 'portal-only' }) },
        alice,
      );
      const extraId = extra.json().data.ID_meter as number;
      await callMultipart(
        t.app,
        `${W}/images`,
        { device_token: tok(BENCH), meter_ID: String(extraId) },
        [{ name: 'x.png', type: 'image/png', bytes: tinyPng() }],
        alice,
      );
      expect((await list()).map((m) => m.SNUM)).toContain('portal-only');
      const down = await exchange('download-database');
      expect(down.json()).toEqual({ status: 'OK', data: { count: 2 } });
      expect((await list()).map((m) => m.SNUM)).not.toContain('portal-only');
      const left = await t.services.database.db.selectFrom('meter_images').select('meter_id').execute();
      expect(left.map((r) => r.meter_id)).not.toContain(extraId);
    });

    it('answers 604 when the device does not answer in time, and changes nothing', async () => {
      for (const path of ['upload-database', 'download-database'] as const) {
        const r = await exchange(path, SILENT);
        expect(r.statusCode).toBe(504);
        expect(r.json()).toMatchObject({ status: 'ERROR', code: 604 });
      }
      const none = await call(t.app, 'POST', `${R}/meters`, { device_token: tok(SILENT) }, alice);
      expect(none.json()).toMatchObject({ code: 610 });
    });

    it("stores the device's accuracy tests and counts them per meter", async () => {
      await waitFor(async () => (await list()).some((m) => m.LPCOUNT > 0), 20_000);
      const tested = (await list()).find((m) => m.LPCOUNT > 0)!;
      const r = await call(
        t.app,
        'POST',
        `${R}/test-result`,
        { device_token: tok(BENCH), ID_meter: tested.ID_meter },
        alice,
      );
      expect(r.statusCode).toBe(200);
      const tests = r.json().data as {
        IDN: string;
        MTIME: number;
        ERROR: number;
        MCHNLA1: number;
        INTTIME: number;
      }[];
      expect(tests.length).toBe(tested.LPCOUNT);
      expect(tests[0]).toMatchObject({ IDN: tested.IDN, INTTIME: 2 });
      expect(tests[0]!.MCHNLA1).toBeGreaterThan(200);
      expect(Math.abs(tests[0]!.ERROR)).toBeLessThanOrEqual(1);
    }, 30_000);
  },
);

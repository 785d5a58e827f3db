import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import { FIRMWARE_IMAGE_MAX_BYTES, unixMs, unixSec } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  callMultipart,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';
import type { LiveEvent } from '../live/bus';

const BREAKER = '02-4D-50-00-00-02';
const AWAY = '02-4D-50-00-00-12';
const UPGRADE = '/api/write/devices/firmware-upgrade';
const STATUS = '/api/read/devices/firmware';
const VERSIONS = '/api/write/firmware/versions';
const HISTORY = '/api/read/devices/relay/history';

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

/** The tables of relay and firmware (the simulated device keeps writing telemetry meanwhile). */
const mine = async (t: TestApp) => {
  const all = await snapshot(t.services);
  return [all.relay_switchings, all.firmware_versions, all.firmware_upgrades];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DIALECTS)(
  'relay control and firmware upgrades over the embedded broker on $name',
  (dialect) => {
    let t: TestApp;
    let runtime: Runtime;
    let alice: Client;
    let bob: Client;
    let boss: Client;
    let breakerId: number;
    let sim: SimDevice;
    const tok = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
    const status = async () =>
      (await call(t.app, 'POST', STATUS, { token: tok(alice, BREAKER) }, alice)).json<{
        data: {
          fw: string | null;
          online: boolean;
          upgrades: {
            state: string;
            progress: number;
            fwAfter: string | null;
            fromFw: string | null;
            toFw: string;
            login: string;
          }[];
        };
      }>().data;
    const register = (
      version: string,
      type = '2',
      files = [
        {
          name: `fw-${version}.bin`,
          type: 'application/octet-stream',
          bytes: Buffer.from(`image ${version}`),
        },
      ],
    ) => callMultipart(t.app, VERSIONS, { user_token: boss.token, device_type: type, version }, files, boss);
    /** Waits until the breaker's latest upgrade reaches one of the states. */
    async function until(states: string[]) {
      for (let i = 0; i < 100; i++) {
        const s = await status();
        if (states.includes(s.upgrades[0]?.state ?? '')) return s;
        await sleep(100);
      }
      throw new Error(`upgrade never reached ${states.join('/')}`);
    }

    beforeAll(async () => {
      t = await createTestApp(dialect, {
        env: { DEMO: 'false', ROLES: 'read,write,ingest', FIRMWARE_UPGRADE_TIMEOUT_SEC: '300' },
        commandTimeoutMs: 1500,
      });
      runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
      const aliceId = await addUser(t.services, 'alice', 'alice-secret');
      const bobId = await addUser(t.services, 'bob', 'bob-secret');
      const bossId = await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
      breakerId = await addDevice(t.services, BREAKER, 2);
      await assign(t.services, aliceId, breakerId, true);
      await assign(t.services, bobId, breakerId, false);
      await assign(t.services, aliceId, await addDevice(t.services, AWAY, 2), true);
      const creds = await runtime.link!.credentials.issue(breakerId, BREAKER);
      sim = startDevice({
        brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
        mac: BREAKER,
        type: 2,
        ...creds,
        outages: false,
      });
      alice = await quickSession(t.services, aliceId);
      bob = await quickSession(t.services, bobId);
      boss = await quickSession(t.services, bossId);
      await sim.connected;
      for (let i = 0; i < 100 && !(await status()).online; i++) await sleep(100);
    }, 60_000);
    afterAll(async () => {
      await sim.stop();
      await runtime.stop();
      await t.close();
    });

    it('records who switched the relay, and the device reporting an overload trip', async () => {
      const r = await call(
        t.app,
        'POST',
        '/api/write/devices/relay',
        { token: tok(alice, BREAKER), state: 'OPEN' },
        alice,
      );
      expect(r.json()).toEqual({ status: 'OK', data: { state: 'OPEN' } });
      t.clock.advance(1000);
      await call(
        t.app,
        'POST',
        '/api/write/devices/relay',
        { token: tok(alice, BREAKER), state: 'CLOSED' },
        alice,
      );
      await t.services.relay.onDeviceMessage(
        {
          kind: 'event',
          mac: BREAKER,
          payload: {
            type: 'DISCONNECTOR',
            data: { timestamp: unixSec(t.clock.nowMs() / 1000 + 5), event: 'OPEN', message: 'OVERLOAD' },
          },
        },
        breakerId,
      );
      await t.services.notifications.record(breakerId, BREAKER, 'DISCONNECTOR', {
        timestamp: unixMs(t.clock.nowMs() + 5000),
        event: 'OPEN',
        message: 'OVERLOAD',
      });
      const h = (await call(t.app, 'POST', HISTORY, { token: tok(alice, BREAKER) }, alice)).json().data;
      expect(h.state).toBe('OPEN');
      expect(
        h.switchings.map((s: { state: string; cause: string; login: string | null }) => [
          s.state,
          s.cause,
          s.login,
        ]),
      ).toEqual([
        ['OPEN', 'OVERLOAD', null],
        ['CLOSED', 'USER', 'alice'],
        ['OPEN', 'USER', 'alice'],
      ]);
      // The device's own DISCONNECTOR events are notifications too; the trip is among them.
      expect(h.notifications).toContainEqual(
        expect.objectContaining({
          type: 'DISCONNECTOR',
          data: expect.objectContaining({ message: 'OVERLOAD' }),
        }),
      );
    });

    it('shows the relay to its owners only: another user of the device meets absence', async () => {
      const before = await mine(t);
      const h = await call(t.app, 'POST', HISTORY, { token: tok(bob, BREAKER) }, bob);
      expect(h.json()).toMatchObject({ status: 'ERROR', code: 605 });
      const s = await call(
        t.app,
        'POST',
        '/api/write/devices/relay',
        { token: tok(bob, BREAKER), state: 'OPEN' },
        bob,
      );
      expect(s.json()).toMatchObject({ status: 'ERROR', code: 605 });
      const u = await call(t.app, 'POST', UPGRADE, { token: tok(bob, BREAKER), fw: '2.0.0' }, bob);
      expect(u.json()).toMatchObject({ status: 'ERROR', code: 605 });
      expect(await mine(t)).toEqual(before);
    });

    it('registers a version with its image and shows the image checksum', async () => {
      const r = await register('2.0.0');
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toMatchObject({
        deviceType: 2,
        version: '2.0.0',
        imageName: 'fw-2.0.0.bin',
        sizeBytes: 'image 2.0.0'.length,
        sha256: crypto.createHash('sha256').update('image 2.0.0').digest('hex'),
      });
      const list = await call(
        t.app,
        'POST',
        '/api/read/firmware/versions',
        { user_token: alice.token },
        alice,
      );
      expect(list.json().data.map((v: { version: string }) => v.version)).toEqual(['2.0.0']);
    });

    it.each([
      [
        'an oversized image',
        [
          {
            name: 'big.bin',
            type: 'application/octet-stream',
            bytes: Buffer.alloc(FIRMWARE_IMAGE_MAX_BYTES + 1, 1),
          },
        ],
        /too large/,
      ],
      [
        'an image that is not firmware',
        [{ name: 'photo.png', type: 'image/png', bytes: Buffer.from('png') }],
        /File format not supported/,
      ],
      [
        'an empty image',
        [{ name: 'empty.bin', type: 'application/octet-stream', bytes: Buffer.alloc(0) }],
        /empty/,
      ],
      [
        'two images',
        [
          { name: 'a.bin', type: 'application/octet-stream', bytes: Buffer.from('a') },
          { name: 'b.bin', type: 'application/octet-stream', bytes: Buffer.from('b') },
        ],
        /at most one/,
      ],
    ])('refuses %s with 600 and registers nothing', async (_what, files, message) => {
      const before = await mine(t);
      const r = await register('3.0.0', '2', files);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 600 });
      expect(r.json().message).toMatch(message);
      expect(await mine(t)).toEqual(before);
    });

    it('refuses a version registered twice, an unknown device type, and a registration by a non-manager', async () => {
      const before = await mine(t);
      expect((await register('2.0.0')).json()).toMatchObject({ code: 608 });
      expect((await register('2.0.1', '9')).json()).toMatchObject({ code: 600 });
      const byAlice = await callMultipart(
        t.app,
        VERSIONS,
        { user_token: alice.token, device_type: '2', version: '9.0.0' },
        [],
        alice,
      );
      expect(byAlice.json()).toMatchObject({ code: 602 });
      expect(await mine(t)).toEqual(before);
    });

    it('refuses an upgrade to a version not registered for the device type, changing nothing', async () => {
      await register('5.0.0', '4');
      const before = await mine(t);
      const r = await call(t.app, 'POST', UPGRADE, { token: tok(alice, BREAKER), fw: '5.0.0' }, alice);
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(/Firmware upgrade not available for this device/);
      expect(await mine(t)).toEqual(before);
    });

    it('refuses an offline device with 604 and keeps no upgrade', async () => {
      const r = await call(t.app, 'POST', UPGRADE, { token: tok(alice, AWAY), fw: '2.0.0' }, alice);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 604 });
      expect(await t.services.database.db.selectFrom('firmware_upgrades').selectAll().execute()).toEqual([]);
    });

    it('upgrades the device: progress pushed live, the new version reported after the reboot, kept as history', async () => {
      const steps: [string, number][] = [];
      const off = t.services.live.bus.subscribe(BREAKER, (e: LiveEvent) => {
        if (e.kind === 'data' && e.topic === 'Upgrade') {
          const p = e.payload as { state: string; progress: number };
          steps.push([p.state, p.progress]);
        }
      });
      const fromFw = (await status()).fw;
      const r = await call(t.app, 'POST', UPGRADE, { token: tok(alice, BREAKER), fw: '2.0.0' }, alice);
      expect(r.json().data).toMatchObject({ toFw: '2.0.0', fromFw, login: 'alice' });
      const s = await until(['DONE', 'FAILED', 'TIMEOUT']);
      off();
      expect(s.upgrades[0]).toMatchObject({
        state: 'DONE',
        progress: 100,
        fromFw,
        toFw: '2.0.0',
        fwAfter: '2.0.0',
      });
      expect(steps[0]).toEqual(['STARTING', 0]);
      expect(steps).toContainEqual(['UPGRADING', 60]);
      expect(steps.map(([st]) => st)).toContain('REBOOTING');
      expect(steps.at(-1)).toEqual(['DONE', 100]);
      for (let i = 0; i < 50 && (await status()).fw !== '2.0.0'; i++) await sleep(100);
      expect((await status()).fw).toBe('2.0.0');
    }, 20_000);

    it('keeps the refusal of a version the device already runs as "not available"', async () => {
      const r = await call(t.app, 'POST', UPGRADE, { token: tok(alice, BREAKER), fw: '2.0.0' }, alice);
      expect(r.json().data).toMatchObject({ state: 'NOT_AVAILABLE', fwAfter: '2.0.0' });
    });

    it('keeps a failed upgrade with the version still running', async () => {
      await register('2.1.0-fail');
      await call(t.app, 'POST', UPGRADE, { token: tok(alice, BREAKER), fw: '2.1.0-fail' }, alice);
      const s = await until(['FAILED', 'DONE']);
      expect(s.upgrades[0]).toMatchObject({
        state: 'FAILED',
        fromFw: '2.0.0',
        fwAfter: '2.0.0',
        progress: 60,
      });
    }, 20_000);

    it('times out an upgrade whose device goes silent, and says so live', async () => {
      await register('2.2.0-silent');
      const pushed: string[] = [];
      const off = t.services.live.bus.subscribe(BREAKER, (e: LiveEvent) => {
        if (e.kind === 'data' && e.topic === 'Upgrade') pushed.push((e.payload as { state: string }).state);
      });
      await call(t.app, 'POST', UPGRADE, { token: tok(alice, BREAKER), fw: '2.2.0-silent' }, alice);
      await until(['UPGRADING']);
      await sleep(600);
      // Not yet silent for the timeout: nothing happens.
      t.clock.advance(299_000);
      expect(await t.services.firmware.sweep()).toBe(0);
      t.clock.advance(2_000);
      expect(await t.services.firmware.sweep()).toBe(1);
      off();
      const s = await status();
      expect(s.upgrades[0]).toMatchObject({
        state: 'TIMEOUT',
        toFw: '2.2.0-silent',
        fwAfter: '2.0.0',
        progress: 20,
      });
      expect(pushed.at(-1)).toBe('TIMEOUT');
    }, 20_000);
  },
);

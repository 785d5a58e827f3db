import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevice, type SimDevice, type TeachScene } from '@meterportal/simulator';
import { unixMs } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';

const HOUSE = '02-4D-50-00-00-21';
const WORKSHOP = '02-4D-50-00-00-24';
const LIST = '/api/read/devices/appliances';
const TEACH = '/api/write/devices/appliances/teach';
const FINISH = '/api/write/devices/appliances/teach/finish';
const IMPRINT = '/api/write/devices/appliances/imprint';
const REMOVE = '/api/write/devices/appliances';
const SETTINGS = '/api/write/devices/nilm';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the simulated household does while the meter listens, chosen by the name's first word. */
const scene = (name: string): TeachScene =>
  name.startsWith('Busy')
    ? 'MORE'
    : name.startsWith('Half')
      ? 'LESS'
      : name.startsWith('Quiet')
        ? 'NONE'
        : 'TWO';

interface Appliance {
  name: string;
  phase: string | null;
  origin: string;
  imprint: { phase: string; deltaW: number }[] | null;
  runs: number;
  runtimeSec: number;
  energyWh: number;
}

describe.each(DIALECTS)('appliances of a household meter over the embedded broker on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let alice: Client;
  let bob: Client;
  let houseId: number;
  let sim: SimDevice;
  const tok = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
  const post = (url: string, body: object, c: Client = alice, method: 'POST' | 'DELETE' = 'POST') =>
    call(t.app, method, url, body, c);
  const list = async (from = Date.now() - 3600_000, to = Date.now() + 60_000) => {
    const r = await post(LIST, { token: tok(alice, HOUSE), from, to });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ data: { settings: { process: boolean; autoLearn: boolean }; appliances: Appliance[] } }>()
      .data;
  };
  const teach = async (name: string) => {
    const started = await post(TEACH, { token: tok(alice, HOUSE), name });
    expect(started.json(), started.body).toEqual({ status: 'OK', data: { name } });
    // The person switches the appliance on and off meanwhile.
    await sleep(1200);
    return post(FINISH, { token: tok(alice, HOUSE), name });
  };
  const stored = async () => (await snapshot(t.services)).nilm_appliances;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { DEMO: 'false', ROLES: 'read,write,ingest' },
      commandTimeoutMs: 2000,
    });
    // The portal and the simulated meter keep the same time, so events fall in the asked ranges.
    t.clock.set(Date.now());
    runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const bobId = await addUser(t.services, 'bob', 'bob-secret');
    houseId = await addDevice(t.services, HOUSE, 1, 'House');
    await assign(t.services, aliceId, houseId, true);
    await assign(t.services, bobId, houseId, false);
    await assign(t.services, aliceId, await addDevice(t.services, WORKSHOP, 4, 'Workshop'), true);
    const creds = await runtime.link!.credentials.issue(houseId, HOUSE);
    sim = startDevice({
      brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
      mac: HOUSE,
      type: 1,
      ...creds,
      outages: false,
      teachScene: scene,
    });
    alice = await quickSession(t.services, aliceId);
    bob = await quickSession(t.services, bobId);
    await sim.connected;
  }, 60_000);
  afterAll(async () => {
    await sim.stop();
    await runtime.stop();
    await t.close();
  });

  it('teaches an appliance from its two edges, stores the imprint and counts the run it saw', async () => {
    t.clock.set(Date.now());
    const r = await teach('Kettle');
    expect(r.statusCode, r.body).toBe(200);
    const { outcome, edges, appliance } = r.json<{
      data: { outcome: string; edges: { phase: string; deltaW: number }[]; appliance: Appliance };
    }>().data;
    expect(outcome).toBe('LEARNED');
    expect(edges).toHaveLength(2);
    expect(edges[0]!.deltaW).toBeGreaterThan(0);
    expect(edges[1]!.deltaW).toBe(-edges[0]!.deltaW);
    expect(appliance).toMatchObject({
      name: 'Kettle',
      origin: 'TAUGHT',
      imprint: edges,
      phase: edges[0]!.phase,
    });
    // The meter reports the taught run as NILM events; its figures come from them.
    let kettle: Appliance | undefined;
    for (let i = 0; i < 50; i++) {
      kettle = (await list()).appliances.find((a) => a.name === 'Kettle');
      if (kettle && kettle.runs > 0) break;
      await sleep(100);
    }
    expect(kettle).toMatchObject({ name: 'Kettle', runs: 1, imprint: edges });
    expect(kettle!.runtimeSec).toBeGreaterThanOrEqual(1);
    expect(kettle!.energyWh).toBe(Math.round((edges[0]!.deltaW * kettle!.runtimeSec) / 360) / 10);
  });

  it.each([
    ['Busy dryer', 'MORE_THAN_2', 3],
    ['Half lamp', 'LESS_THAN_2', 1],
    ['Quiet fan', 'NO_EDGE', 0],
  ])('answers %s with %s and keeps nothing', async (name, outcome, count) => {
    const before = await stored();
    const r = await teach(name);
    expect(r.statusCode, r.body).toBe(200);
    const data = r.json<{ data: { outcome: string; edges: unknown[]; appliance: null } }>().data;
    expect(data).toMatchObject({ outcome, appliance: null });
    expect(data.edges).toHaveLength(count);
    expect(await stored()).toEqual(before);
  });

  it('refuses a name that is already taught, in any case, before asking the meter', async () => {
    const before = await stored();
    const r = await post(TEACH, { token: tok(alice, HOUSE), name: ' kettle ' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ status: 'ERROR', code: 608, message: 'Object alredy exist' });
    // The meter was not asked to listen: finishing finds it not teaching.
    const f = await post(FINISH, { token: tok(alice, HOUSE), name: 'kettle' });
    expect(f.statusCode).toBe(409);
    expect(await stored()).toEqual(before);
  });

  it('removes an imprint, lets the name be taught again, and removes the appliance', async () => {
    const gone = await post(IMPRINT, { token: tok(alice, HOUSE), name: 'Kettle' }, alice, 'DELETE');
    expect(gone.json()).toEqual({ status: 'OK', data: { name: 'Kettle' } });
    expect((await list()).appliances.find((a) => a.name === 'Kettle')).toMatchObject({ imprint: null });
    const again = await post(IMPRINT, { token: tok(alice, HOUSE), name: 'Kettle' }, alice, 'DELETE');
    expect(again.json()).toMatchObject({ status: 'ERROR', code: 610 });
    const retaught = await teach('Kettle');
    expect(retaught.json()).toMatchObject({ data: { outcome: 'LEARNED' } });
    const removed = await post(REMOVE, { token: tok(alice, HOUSE), name: 'kettle' }, alice, 'DELETE');
    expect(removed.json()).toEqual({ status: 'OK', data: { name: 'Kettle' } });
    expect((await list()).appliances.map((a) => a.name)).not.toContain('Kettle');
    const twice = await post(REMOVE, { token: tok(alice, HOUSE), name: 'Kettle' }, alice, 'DELETE');
    expect(twice.json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it('gives an appliance the energy, runs and runtime of exactly the OFF events inside the range', async () => {
    const now = Date.now();
    t.clock.set(now);
    const r = await teach('Heater');
    expect(r.json()).toMatchObject({ data: { outcome: 'LEARNED' } });
    const at = (minAgo: number) => unixMs(now - minAgo * 60_000);
    const events = [
      { minAgo: 170, event: 'OFF', runtime: 600, wh: 333.3 },
      { minAgo: 150, event: 'ON', runtime: 0, wh: 0 },
      { minAgo: 140, event: 'OFF', runtime: 1200, wh: 666.7 },
      { minAgo: 100, event: 'OFF', runtime: 300, wh: 41.25 },
      // Outside [now - 180 min, now - 60 min):
      { minAgo: 190, event: 'OFF', runtime: 900, wh: 500 },
      { minAgo: 30, event: 'OFF', runtime: 60, wh: 12 },
    ];
    for (const e of events)
      await t.services.notifications.record(houseId, HOUSE, 'NILM', {
        timestamp: at(e.minAgo),
        event: e.event,
        name: 'Heater',
        phase: 'L2',
        prediction_rate: 93.1,
        runtime: e.runtime,
        energy_consumption_wh: e.wh,
      });
    const inside = events.filter((e) => e.event === 'OFF' && e.minAgo <= 180 && e.minAgo > 60);
    const heater = (await list(now - 180 * 60_000, now - 60 * 60_000)).appliances.find(
      (a) => a.name === 'Heater',
    );
    expect(heater).toMatchObject({
      runs: inside.length,
      runtimeSec: inside.reduce((s, e) => s + e.runtime, 0),
      energyWh: Math.round(inside.reduce((s, e) => s + e.wh, 0) * 10) / 10,
    });
    expect(heater!.energyWh).toBe(1041.3);
  });

  it('lists an appliance the meter learned on its own from its NILM event', async () => {
    await t.services.appliances.onDeviceMessage(
      {
        kind: 'event',
        mac: HOUSE,
        payload: {
          type: 'NILM',
          data: {
            timestamp: Math.floor(Date.now() / 1000),
            event: 'ON',
            name: 'Fridge',
            phase: 'L1',
            prediction_rate: 90,
            runtime: 0,
            energy_consumption_wh: 0,
          },
        },
      } as never,
      houseId,
    );
    expect((await list()).appliances.find((a) => a.name === 'Fridge')).toMatchObject({
      origin: 'LEARNED',
      phase: 'L1',
      imprint: null,
    });
  });

  it('sends the NILM switches to the meter and keeps them in the device entry', async () => {
    const r = await post(SETTINGS, { token: tok(alice, HOUSE), process: false, autoLearn: true });
    expect(r.json()).toEqual({ status: 'OK', data: { process: false, autoLearn: true } });
    expect((await list()).settings).toEqual({ process: false, autoLearn: true });
    const entry = (
      await t.services.devices.deviceList(
        alice.devices.length ? (await t.services.auth.resolveSession(alice.cookie)).userId : 0,
      )
    ).find((d) => d.mac === HOUSE);
    expect(entry?.NILM).toEqual({ process: false, autoLearn: true });
    const back = await post(SETTINGS, { token: tok(alice, HOUSE), process: true, autoLearn: false });
    expect(back.json()).toEqual({ status: 'OK', data: { process: true, autoLearn: false } });
  });

  it('looks absent to a user who is not the owner and for a meter of another type', async () => {
    const before = await stored();
    const asBob = [
      await post(LIST, { token: tok(bob, HOUSE), from: 0, to: 86_400_000 }, bob),
      await post(TEACH, { token: tok(bob, HOUSE), name: 'Toaster' }, bob),
      await post(SETTINGS, { token: tok(bob, HOUSE), process: true, autoLearn: true }, bob),
      await post(REMOVE, { token: tok(bob, HOUSE), name: 'Heater' }, bob, 'DELETE'),
    ];
    const workshop = [
      await post(LIST, { token: tok(alice, WORKSHOP), from: 0, to: 86_400_000 }),
      await post(TEACH, { token: tok(alice, WORKSHOP), name: 'Toaster' }),
    ];
    for (const r of [...asBob, ...workshop])
      expect(r.json()).toEqual({
        status: 'ERROR',
        code: 605,
        message: 'Device not found',
      });
    expect(await stored()).toEqual(before);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const before = await stored();
    const bad = [
      await post(TEACH, { token: tok(alice, HOUSE), name: '' }),
      await post(TEACH, { token: tok(alice, HOUSE), name: 'x'.repeat(25) }),
      await post(TEACH, { token: tok(alice, HOUSE), name: 'a\u0000b' }),
      await post(LIST, { token: tok(alice, HOUSE), from: 10, to: 5 }),
      await post(LIST, { token: tok(alice, HOUSE), from: 0, to: 400 * 86_400_000 }),
      await post(SETTINGS, { token: tok(alice, HOUSE), process: 'yes', autoLearn: true }),
    ];
    for (const r of bad) expect(r.statusCode, r.body).toBe(400);
    expect(await stored()).toEqual(before);
  });
});

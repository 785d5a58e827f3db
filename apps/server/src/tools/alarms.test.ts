import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LiveFrame } from '@meterportal/protocol';
import { memoryLogger } from '../telemetry/testing';
import { alarmEngine } from './alarms.engine';
import { alarmsRepository } from './alarms.repository';
import type { RecordedNotification } from './notifications.service';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';

const MAC = '02-4D-50-00-00-21';
/** A quarter-hour start (2026-11-21 12:00 UTC, the test clock's start). */
const Q = Date.UTC(2026, 10, 21, 12, 0, 0) / 1000;

const phases = (v: number) => ({ L1: v, L2: v, L3: v });
/** A frame with voltage u on every phase, power p per phase and imported energy e per phase. */
function frame(ts: number, o: { u?: number; p?: number; e?: number } = {}): LiveFrame {
  const zero = phases(0);
  const reg = phases(Math.round(o.e ?? 0));
  return {
    ts,
    U: phases(o.u ?? 230),
    I: zero,
    P: phases(o.p ?? 0),
    Q: zero,
    S: zero,
    PF: zero,
    DF_U: zero,
    DF_I: zero,
    F_U: zero,
    F_I: zero,
    U_PP: zero,
    F_UPP: zero,
    F: 50,
    E_I: reg,
    E_E: zero,
    Q1: zero,
    Q2: zero,
    Q3: zero,
    Q4: zero,
    Q_E: zero,
    S_E: zero,
  };
}

describe.each(DIALECTS)('alarms on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let deviceId: number;
  const recorded: RecordedNotification[] = [];
  const tok = (c: Client) => c.devices.find((d) => d.mac === MAC)!.token;
  const engine = () => t.services.alarmEngine;

  async function addRule(rule: object, lang = 'en', who: Client = alice): Promise<number> {
    const r = await call(
      t.app,
      'POST',
      '/api/write/tools/alarms/rules',
      { user_token: who.token, device_token: tok(who), lang, rule },
      who,
    );
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ data: { ID: number } }>().data.ID;
  }
  async function alarms(filter: object = {}, who: Client = alice) {
    const r = await call(
      t.app,
      'POST',
      '/api/read/tools/alarms',
      { user_token: who.token, device_token: tok(who), ...filter },
      who,
    );
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{
      data: {
        ID: number;
        ID_rule: number;
        state: string;
        value: number;
        acknowledgedBy: string | null;
        note: string | null;
        cleared: number | null;
      }[];
    }>().data;
  }
  async function feed(...frames: LiveFrame[]): Promise<void> {
    for (const f of frames) engine().onFrame(deviceId, f);
    await engine().settled();
  }
  const ofRule = async (id: number) => (await alarms()).filter((a) => a.ID_rule === id);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const s = t.services;
    const aliceId = await addUser(s, 'alice', 'alice-secret');
    const bobId = await addUser(s, 'bob', 'bob-secret');
    deviceId = await addDevice(s, MAC, 4, 'Plant');
    await assign(s, aliceId, deviceId, true);
    await assign(s, bobId, deviceId, true);
    alice = await quickSession(s, aliceId);
    bob = await quickSession(s, bobId);
    for (const c of [alice, bob]) {
      const r = await call(
        t.app,
        'POST',
        '/api/write/tools/notifications/pair',
        { user_token: c.token, device_token: tok(c), notifyTypeID: 1, notifyDestID: 1 },
        c,
      );
      expect(r.statusCode, r.body).toBe(200);
    }
    s.notifications.onRecorded((n) => recorded.push(n));
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each case starts from no rules, so rules of an earlier case do not fire.
    await t.services.database.db.deleteFrom('alarm_rules').execute();
    await t.services.database.db.deleteFrom('alarms').execute();
    await engine().reload();
    recorded.length = 0;
  });

  it('raises only once the condition has held for the hold time, and a short dip does not count', async () => {
    const id = await addRule({
      kind: 'threshold',
      name: 'Low voltage',
      severity: 'warning',
      quantity: 'U',
      phase: 'L1',
      condition: 'below',
      threshold: 207,
      holdSec: 60,
    });
    const t0 = Q + 1000;
    await feed(frame(t0, { u: 200 }), frame(t0 + 30, { u: 200 }), frame(t0 + 31, { u: 230 }));
    await feed(frame(t0 + 40, { u: 200 }), frame(t0 + 99, { u: 201 }));
    expect(await ofRule(id)).toEqual([]);
    await feed(frame(t0 + 100, { u: 199.5 }));
    const [a] = await ofRule(id);
    expect(a).toMatchObject({ state: 'raised', value: 199.5 });
  });

  it('clears only past the hysteresis', async () => {
    const id = await addRule({
      kind: 'threshold',
      name: 'High voltage',
      severity: 'critical',
      quantity: 'U',
      phase: 'SUM',
      condition: 'above',
      threshold: 250,
      hysteresis: 5,
    });
    const t0 = Q + 2000;
    await feed(frame(t0, { u: 251 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    await feed(frame(t0 + 1, { u: 249 }), frame(t0 + 2, { u: 246 }), frame(t0 + 3, { u: 252 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    await feed(frame(t0 + 4, { u: 245 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
    // A new breach is a new alarm.
    await feed(frame(t0 + 5, { u: 260 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised', 'cleared']);
  });

  it('raises outside a band and clears inside it', async () => {
    const id = await addRule({
      kind: 'threshold',
      name: 'Frequency',
      severity: 'info',
      quantity: 'F',
      phase: 'SUM',
      condition: 'outside',
      threshold: 49.8,
      thresholdHigh: 50.2,
      hysteresis: 0.05,
    });
    const t0 = Q + 3000;
    const f = (ts: number, hz: number) => ({ ...frame(ts), F: hz });
    await feed(f(t0, 50), f(t0 + 1, 49.7));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    await feed(f(t0 + 2, 49.82));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    await feed(f(t0 + 3, 49.9));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
  });

  it('raises a device silent for longer than the offline minutes, and clears on its next frame', async () => {
    const id = await addRule({ kind: 'offline', name: 'Silent', severity: 'critical', offlineMin: 10 });
    await feed(frame(Q + 4000));
    t.clock.advance(9 * 60_000);
    engine().checkOffline();
    await engine().settled();
    expect(await ofRule(id)).toEqual([]);
    t.clock.advance(2 * 60_000);
    engine().checkOffline();
    engine().checkOffline();
    await engine().settled();
    expect(await ofRule(id)).toEqual([expect.objectContaining({ state: 'raised', value: 11 })]);
    await feed(frame(Q + 4700));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
  });

  it('warns when the running quarter is projected to pass its share of MRK, and clears when it is not', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/write/devices/details',
      { token: tok(alice), MRK: 10, RK: 8 },
      alice,
    );
    expect(r.statusCode, r.body).toBe(200);
    const id = await addRule({
      kind: 'demand',
      name: 'Peak',
      severity: 'warning',
      limit: 'MRK',
      sharePct: 80,
    });
    const q = Q + 7200;
    // 6 kW from the start projects 6 kW: under 8 kW.
    await feed(frame(q, { p: 2000, e: 0 }));
    expect(await ofRule(id)).toEqual([]);
    // After 5 min at 6 kW (500 Wh), 12 kW for the last 10 min projects (500 + 2000) Wh * 4 = 10 kW.
    await feed(frame(q + 300, { p: 4000, e: 500 / 3 }));
    const [a] = await ofRule(id);
    expect(a).toMatchObject({ state: 'raised' });
    expect(a!.value).toBeCloseTo(10_000, -1);
    // The load is shed: 1.5 kWh taken, nothing more to come projects 6 kW.
    await feed(frame(q + 600, { p: 0, e: 1500 / 3 }));
    expect((await ofRule(id)).map((x) => x.state)).toEqual(['cleared']);
    // RK is the other limit: 8 kW * 50 % = 4 kW is passed by 6 kW at once.
    const rk = await addRule({ kind: 'demand', name: 'RK', severity: 'info', limit: 'RK', sharePct: 50 });
    await feed(frame(q + 900, { p: 2000, e: 1500 / 3 }));
    expect((await ofRule(rk)).map((x) => x.state)).toEqual(['raised']);
  });

  it('lives through raised, acknowledged with a note, and cleared, told to its owner only', async () => {
    const id = await addRule(
      {
        kind: 'threshold',
        name: 'Überspannung',
        severity: 'critical',
        quantity: 'U',
        phase: 'L2',
        condition: 'above',
        threshold: 240,
      },
      'sk',
    );
    const t0 = Q + 5000;
    await feed(frame(t0, { u: 245 }));
    const [raised] = await ofRule(id);
    expect(raised).toMatchObject({ state: 'raised', acknowledgedBy: null });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.inAppUserIds).toHaveLength(1);
    expect(recorded[0]!.entry.data).toMatchObject({ event: 'ALARM_RAISED', name: 'Überspannung' });
    expect(recorded[0]!.entry.data.message).toContain('Alarm vznikol (kritický)');
    expect(recorded[0]!.entry.data.message).toContain('U L2 nad 240 V');
    // Bob shares the device but not the rule: he sees no alarm and cannot acknowledge it.
    expect(await alarms({}, bob)).toEqual([]);
    const ack = (who: Client, note: string) =>
      call(
        t.app,
        'POST',
        '/api/write/tools/alarms/acknowledge',
        { user_token: who.token, device_token: tok(who), ID: raised!.ID, note },
        who,
      );
    expect((await ack(bob, 'mine')).json()).toMatchObject({ code: 605 });
    expect((await ack(alice, 'Checking the transformer')).statusCode).toBe(200);
    expect((await ack(alice, 'again')).json()).toMatchObject({ code: 608 });
    expect(await alarms({ state: 'acknowledged' })).toEqual([
      expect.objectContaining({ ID: raised!.ID, acknowledgedBy: 'alice', note: 'Checking the transformer' }),
    ]);
    expect(await alarms({ state: 'active', severity: 'critical' })).toHaveLength(1);
    expect(await alarms({ state: 'active', severity: 'info' })).toHaveLength(0);
    await feed(frame(t0 + 1, { u: 239 }));
    const [cleared] = await ofRule(id);
    expect(cleared).toMatchObject({ state: 'cleared', acknowledgedBy: 'alice' });
    expect(cleared!.cleared).toBe(t.clock.nowMs());
    expect(recorded.map((n) => n.entry.data.event)).toEqual(['ALARM_RAISED', 'ALARM_CLEARED']);
    expect(recorded[1]!.entry.data.message).toContain('Alarm zanikol');
    // The time filter: raised before now, nothing from the next second on.
    const nowSec = Math.floor(t.clock.nowMs() / 1000);
    expect(await alarms({ from: nowSec - 1, to: nowSec + 1 })).toHaveLength(1);
    expect(await alarms({ from: nowSec + 1, to: nowSec + 2 })).toHaveLength(0);
  });

  it('applies a changed rule at once: the open alarm clears under the new threshold', async () => {
    const rule = {
      kind: 'threshold',
      name: 'Over',
      severity: 'warning',
      quantity: 'U',
      phase: 'L1',
      condition: 'above',
      threshold: 220,
    };
    const id = await addRule(rule);
    await feed(frame(Q + 6000, { u: 230 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    const r = await call(
      t.app,
      'POST',
      '/api/write/tools/alarms/rules',
      {
        user_token: alice.token,
        device_token: tok(alice),
        ID: id,
        lang: 'en',
        rule: { ...rule, threshold: 400 },
      },
      alice,
    );
    expect(r.statusCode, r.body).toBe(200);
    await feed(frame(Q + 6001, { u: 230 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
  });

  it('closes the open alarms of a deleted rule and forgets the rule', async () => {
    const id = await addRule({ kind: 'offline', name: 'Gone', severity: 'info', offlineMin: 1 });
    t.clock.advance(120_000);
    engine().checkOffline();
    await engine().settled();
    const del = await call(
      t.app,
      'DELETE',
      '/api/write/tools/alarms/rules',
      { user_token: alice.token, device_token: tok(alice), ID: id },
      alice,
    );
    expect(del.statusCode, del.body).toBe(200);
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
    expect(engine().ruleCount()).toBe(0);
  });

  it('picks up an open alarm after a restart and clears it', async () => {
    const id = await addRule({
      kind: 'threshold',
      name: 'Hot',
      severity: 'info',
      quantity: 'P',
      phase: 'SUM',
      condition: 'above',
      threshold: 3000,
    });
    await feed(frame(Q + 8000, { p: 2000 }));
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['raised']);
    // A new process: rules and the open alarm come from the store.
    const restarted = alarmEngine({
      repo: alarmsRepository(t.services.database),
      notifier: t.services.notifications,
      clock: t.clock,
      log: memoryLogger(),
    });
    await restarted.reload();
    restarted.onFrame(deviceId, frame(Q + 8001, { p: 900 }));
    await restarted.settled();
    expect((await ofRule(id)).map((a) => a.state)).toEqual(['cleared']);
  });

  it.each([
    [{ condition: 'outside', threshold: 10 }, 'thresholdHigh'],
    [{ condition: 'outside', threshold: 10, thresholdHigh: 5 }, 'thresholdHigh'],
    [{ condition: 'outside', threshold: 10, thresholdHigh: 12, hysteresis: 1 }, 'hysteresis'],
    [{ condition: 'above', threshold: 10, thresholdHigh: 12 }, 'thresholdHigh'],
    [{ condition: 'above', threshold: 10, holdSec: -1 }, 'holdSec'],
    [{ condition: 'above', threshold: 10, quantity: 'E_I' }, 'quantity'],
  ])('refuses a rule with %j (600 naming %s) and stores nothing', async (change, field) => {
    const r = await call(
      t.app,
      'POST',
      '/api/write/tools/alarms/rules',
      {
        user_token: alice.token,
        device_token: tok(alice),
        lang: 'en',
        rule: { kind: 'threshold', name: 'x', severity: 'info', quantity: 'U', phase: 'L1', ...change },
      },
      alice,
    );
    expect(r.json()).toMatchObject({ status: 'ERROR', code: 600 });
    expect(r.json<{ message: string }>().message).toContain(field);
    expect(await t.services.database.db.selectFrom('alarm_rules').selectAll().execute()).toEqual([]);
  });
});

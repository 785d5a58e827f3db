// One virtual meter on a real MQTT connection: live frames every (simulated) second, state with
// a last will, NILM / disconnector events, outages, and answers to commands.
import mqtt, { type MqttClient } from 'mqtt';
import {
  CommandRequest,
  MQTT_QOS,
  deviceTopic,
  encodePayload,
  type DeviceTypeId,
  type AccuTestStateMessageInput,
  type EventMessageInput,
  type MeasuredLiveFrame,
  type MeterRecord,
  type StateMessage,
  type UpgradeMessage,
} from '@meterportal/protocol';
import { buildTestResult } from './accutest';
import { answerCommand, factoryMeters, factorySettings, type CommandHost } from './commands';
import { createMeterModel, type Instant, type ModelState } from './model';
import { hash01 } from './noise';
import { outageOf } from './outages';
import { meterProfile } from './profiles';
import { createRegisters } from './registers';
import { createNilm, type TeachScene } from './nilm';

/** How to run one virtual meter. */
export interface DeviceOptions {
  brokerUrl: string;
  mac: string;
  type: DeviceTypeId;
  username: string;
  password: string;
  /** Phases wired (the device's phase_use); default by type. */
  phases?: 1 | 2 | 3;
  /** Whether it has a LoRa radio (the device entry's `lora`); default for smart meters (type 1). */
  lora?: boolean;
  /** Simulated seconds per wall-clock second; tests run faster. Default 1. */
  speed?: number;
  /** Power outages and overload trips; default true. */
  outages?: boolean;
  /** Power-cut window of a UTC day (day = floor(ts / 86400)); default a seeded schedule. */
  outageSchedule?: (day: number) => { fromSec: number; toSec: number } | null;
  /** Wall clock, ms; default Date.now. */
  nowMs?: () => number;
  /** Where the device reports what it does. */
  log?: (line: string) => void;
  /**
   * Accuracy tests of a precision device (type 3): one every `periodSec` simulated seconds on the
   * next meter of its database, each integrating for `durationSec`; false runs none.
   * Default every 300 s, 30 s long.
   */
  accuTest?: { periodSec: number; durationSec?: number } | false;
  /**
   * What a household meter (type 1) sees while it is taught an appliance, by the appliance's name;
   * default both of its edges (TWO).
   */
  teachScene?: (name: string) => TeachScene;
}

/** How a simulated upgrade ends: a version ending in `-fail` fails, one ending in `-silent` hangs. */
export function upgradeOutcome(fw: string): 'ok' | 'fail' | 'silent' {
  if (fw.endsWith('-fail')) return 'fail';
  if (fw.endsWith('-silent')) return 'silent';
  return 'ok';
}

/** Default accuracy test schedule of a precision device. */
export const DEFAULT_ACCUTEST = { periodSec: 300, durationSec: 30 } as const;

/** A running virtual meter. */
export interface SimDevice {
  readonly mac: string;
  readonly type: DeviceTypeId;
  /** Live frames published so far. */
  readonly framesSent: number;
  /** Time of the last frame, unix seconds (simulated). */
  readonly lastTsSec: number;
  /** Resolves once the first connection is up (rejects when refused). */
  readonly connected: Promise<void>;
  /**
   * Hangs the device's command handling (true) or lets it recover (false): it stays connected and
   * keeps measuring, but answers no command, like a device whose firmware stopped listening.
   */
  hang(hung: boolean): void;
  stop(): Promise<void>;
}

/** Starts a virtual meter; it keeps running until stop(). */
export function startDevice(opts: DeviceOptions): SimDevice {
  const speed = opts.speed ?? 1;
  const nowMs = opts.nowMs ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const profile = meterProfile(opts.type, opts.mac, opts.phases);
  const model = createMeterModel(profile);
  const registers = createRegisters(profile.seed);
  const state: ModelState = { relayClosed: true };
  const topic = (k: Parameters<typeof deviceTopic>[1]) => deviceTopic(opts.mac, k);
  // Precision devices talk to the portal directly (BT_MQTT), which their meter-database actions need.
  const connection = opts.type === 1 ? 'BT_MQTT_DB' : 'BT_MQTT';

  let tsSec = Math.floor(nowMs() / 1000);
  let framesSent = 0;
  let client: MqttClient | null = null;
  let stopped = false;
  let offlineUntilSec = 0;
  let upgrading = false;
  let hung = false;
  let tripUntilSec = 0;
  const accu = opts.type === 3 && opts.accuTest !== false ? { ...DEFAULT_ACCUTEST, ...opts.accuTest } : null;
  let nextTestSec = tsSec + (accu?.periodSec ?? 0);
  let testsRun = 0;
  let test: { meter: MeterRecord; startSec: number; lastPct: number } | null = null;

  const publish = (kind: Parameters<typeof deviceTopic>[1], payload: unknown, retain = false) => {
    if (client?.connected) client.publish(topic(kind), encodePayload(payload), { qos: MQTT_QOS, retain });
  };
  const publishState = (status: StateMessage['status']) =>
    publish(
      'state',
      { status, fw: host.fw, connection, device: profile.model, ts: tsSec } satisfies StateMessage,
      true,
    );
  const publishEvent = (e: EventMessageInput) => publish('event', e);
  const nilm = createNilm(profile.seed, opts.teachScene);
  const predictionRate = (k: number) => Math.round(800 + 190 * hash01(profile.seed, k)) / 10;

  const host: CommandHost = {
    model,
    state,
    fw: profile.fw,
    meters: opts.type === 3 ? factoryMeters() : [],
    settings: factorySettings({ mac: opts.mac, phases: profile.phases, lora: opts.lora ?? opts.type === 1 }),
    nowSec: () => tsSec,
    setRelay(closed) {
      if (state.relayClosed === closed) return;
      state.relayClosed = closed;
      publishEvent({
        type: 'DISCONNECTOR',
        data: { timestamp: tsSec, event: closed ? 'CLOSED' : 'OPEN', message: 'COMMAND' },
      });
    },
    setDatabaseUpdate: (active) => publishState(active ? 'DATABASE_UPDATE' : 'ONLINE'),
    startUpgrade(id, fw) {
      upgrading = true;
      const outcome = upgradeOutcome(fw);
      void (async () => {
        const progress = (s: UpgradeMessage['state'], p: number) =>
          publish('upgrade', { id, state: s, progress: p, fw } satisfies UpgradeMessage);
        progress('STARTING', 0);
        for (let p = 20; p <= 100; p += 20) {
          await host.sleep(150);
          if (outcome === 'silent' && p === 40) {
            // The image hangs the device's updater: it says nothing more about this upgrade.
            upgrading = false;
            return;
          }
          if (outcome === 'fail' && p === 60) {
            progress('FAILED', p);
            upgrading = false;
            return;
          }
          progress('UPGRADING', p);
        }
        progress('REBOOTING', 100);
        await host.sleep(100);
        host.fw = fw;
        reconnect();
        await host.sleep(300);
        progress('DONE', 100);
        upgrading = false;
      })();
    },
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    nilm,
    reportTaughtRun(name, run) {
      // The meter recognises the run it has just been taught, as it will recognise the next ones.
      const rate = predictionRate(tsSec);
      const base = { name, phase: run.phase, prediction_rate: rate };
      publishEvent({
        type: 'NILM',
        data: {
          ...base,
          timestamp: tsSec - run.runtimeSec,
          event: 'ON',
          runtime: 0,
          energy_consumption_wh: 0,
        },
      });
      publishEvent({
        type: 'NILM',
        data: {
          ...base,
          timestamp: tsSec,
          event: 'OFF',
          runtime: run.runtimeSec,
          energy_consumption_wh: Math.round((run.powerW * run.runtimeSec) / 360) / 10,
        },
      });
    },
  };

  let resolveConnected: () => void = () => undefined;
  let rejectConnected: (e: Error) => void = () => undefined;
  const connected = new Promise<void>((res, rej) => {
    resolveConnected = res;
    rejectConnected = rej;
  });
  connected.catch(() => undefined);

  function connect(): void {
    const c = mqtt.connect(opts.brokerUrl, {
      clientId: `meter-${opts.mac}`,
      username: opts.username,
      password: opts.password,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      will: {
        topic: topic('state'),
        payload: Buffer.from(encodePayload({ status: 'OFFLINE' })),
        qos: MQTT_QOS,
        retain: true,
      },
    });
    client = c;
    c.on('connect', () => {
      log(`${opts.mac} connected`);
      // Ready only once commands can reach it, so a caller never talks to a deaf device.
      c.subscribe(topic('cmd/req'), { qos: MQTT_QOS }, () => {
        publishState('ONLINE');
        resolveConnected();
      });
    });
    c.on('error', (e) => {
      log(`${opts.mac} ${e.message}`);
      rejectConnected(e);
    });
    c.on('message', (_t, payload) => {
      let json: unknown;
      try {
        json = JSON.parse(payload.toString('utf8'));
      } catch {
        return;
      }
      const req = CommandRequest.safeParse(json);
      if (!req.success || hung) return;
      const busy = upgrading && req.data.cmd !== 'HARMONICS' && req.data.cmd !== 'WAVEFORM';
      void (
        busy
          ? Promise.resolve({
              id: req.data.id,
              cmd: req.data.cmd,
              ok: false as const,
              error: 'BUSY' as const,
            })
          : answerCommand(req.data, host)
      ).then((reply) => publish('cmd/res', reply));
    });
  }

  // One step of the accuracy test schedule; a test whose link drops is abandoned.
  function accuTick(s: Instant): void {
    if (!accu) return;
    const publishAccu = (state: AccuTestStateMessageInput['state'], progress: number, idn: string) =>
      publish('accutest/state', { state, IDN: idn, progress, ts: tsSec } satisfies AccuTestStateMessageInput);
    if (!client?.connected) {
      if (test) nextTestSec = tsSec + accu.periodSec;
      test = null;
      return;
    }
    if (!test) {
      if (tsSec < nextTestSec || host.meters.length === 0 || upgrading) return;
      const meter = host.meters[testsRun++ % host.meters.length]!;
      test = { meter, startSec: tsSec, lastPct: 0 };
      publishAccu('RUNNING', 0, meter.IDN);
      return;
    }
    const elapsed = tsSec - test.startSec;
    if (elapsed < accu.durationSec) {
      const pct = Math.floor((elapsed / accu.durationSec) * 5) * 20;
      if (pct > test.lastPct) {
        test.lastPct = pct;
        publishAccu('RUNNING', pct, test.meter.IDN);
      }
      return;
    }
    publishAccu('DONE', 100, test.meter.IDN);
    publish(
      'accutest/data',
      buildTestResult({
        meter: test.meter,
        instant: s,
        tsSec,
        intTimeSec: accu.durationSec,
        seed: profile.seed,
      }),
    );
    log(`${opts.mac} accuracy test of meter ${test.meter.IDN} done`);
    test = null;
    nextTestSec = tsSec + accu.periodSec;
  }

  // A power cut or reboot drops the link without a DISCONNECT, so the broker sends the last will.
  function dropLink(): void {
    client?.end(true);
    client = null;
  }
  function reconnect(): void {
    dropLink();
    if (!stopped) connect();
  }

  function tick(): void {
    tsSec += 1;
    if (opts.outages !== false) {
      const out = (opts.outageSchedule ?? ((day: number) => outageOf(profile.seed, day)))(
        Math.floor(tsSec / 86400),
      );
      if (out && tsSec >= out.fromSec && tsSec < out.toSec && offlineUntilSec === 0) {
        log(`${opts.mac} power cut for ${out.toSec - tsSec} s`);
        offlineUntilSec = out.toSec;
        dropLink();
      }
      if (offlineUntilSec !== 0) {
        if (tsSec < offlineUntilSec) return; // no power: nothing measured, registers stand still
        offlineUntilSec = 0;
        connect();
      }
      // Type 2 trips on overload now and then and is switched back on by hand two minutes later.
      if (
        opts.type === 2 &&
        state.relayClosed &&
        tsSec % 3600 === 0 &&
        hash01(profile.seed ^ 0x0b, tsSec) < 0.08
      ) {
        state.relayClosed = false;
        tripUntilSec = tsSec + 120;
        publishEvent({
          type: 'DISCONNECTOR',
          data: { timestamp: tsSec, event: 'OPEN', message: 'OVERLOAD' },
        });
      }
      if (tripUntilSec !== 0 && tsSec >= tripUntilSec) {
        tripUntilSec = 0;
        state.relayClosed = true;
        publishEvent({
          type: 'DISCONNECTOR',
          data: { timestamp: tsSec, event: 'CLOSED', message: 'MANUAL' },
        });
      }
    }
    const s = model.sample(tsSec, state);
    registers.integrate(s, 1);
    if (model.appliances) {
      for (const { run, event } of model.appliances.edgesBetween(tsSec - 1, tsSec)) {
        if (!nilm.reports(run.name)) continue;
        const runtime = event === 'OFF' ? run.endSec - run.startSec : 0;
        publishEvent({
          type: 'NILM',
          data: {
            timestamp: tsSec,
            event,
            name: run.name,
            phase: run.phase,
            prediction_rate: predictionRate(run.startSec),
            runtime,
            energy_consumption_wh: Math.round((run.powerW * runtime) / 360) / 10,
          },
        });
      }
    }
    accuTick(s);
    if (!client?.connected) return;
    const frame: MeasuredLiveFrame = { ts: tsSec, ...s, ...registers.read() };
    publish('live', frame);
    framesSent++;
  }

  connect();
  const timer = setInterval(tick, 1000 / speed);

  return {
    mac: opts.mac,
    type: opts.type,
    get framesSent() {
      return framesSent;
    },
    get lastTsSec() {
      return tsSec;
    },
    connected,
    hang(on) {
      hung = on;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      const c = client;
      if (c?.connected)
        await c.publishAsync(topic('state'), encodePayload({ status: 'OFFLINE', ts: tsSec }), {
          qos: MQTT_QOS,
          retain: true,
        });
      client = null;
      if (c) await c.endAsync();
    },
  };
}

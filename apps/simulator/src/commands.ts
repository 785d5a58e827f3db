// How a simulated device answers portal commands (cmd/req -> cmd/res), like the firmware does.
import type {
  CommandReply,
  CommandRequest,
  DeviceSettings,
  IpSettings,
  MeasurementSettings,
  MeterRecord,
  SettingsWrite,
} from '@meterportal/protocol';
import type { MeterModel, ModelState } from './model';
import type { SimNilm } from './nilm';

/** What a command may change or trigger on the device. */
export interface CommandHost {
  model: MeterModel;
  state: ModelState;
  fw: string;
  meters: MeterRecord[];
  /** The device's settings, keys and password included (they never leave the device). */
  settings: StoredSettings;
  nowSec(): number;
  /** Switch the relay and report it as a DISCONNECTOR event. */
  setRelay(closed: boolean): void;
  /** Report DATABASE_UPDATE while the meter database is rewritten. */
  setDatabaseUpdate(active: boolean): void;
  /** Run the firmware upgrade with progress messages, then reconnect with the new version. */
  startUpgrade(id: string, fw: string): void;
  /** Wait, in wall-clock ms. */
  sleep(ms: number): Promise<void>;
  /** NILM switches and teaching of a household meter. */
  nilm: SimNilm;
  /** Report the run of an appliance just taught as its NILM events. */
  reportTaughtRun(name: string, run: { phase: 'L1' | 'L2' | 'L3'; powerW: number; runtimeSec: number }): void;
}

/** Settings as the device keeps them; `lora` is null without a LoRa radio. */
export interface StoredSettings {
  lora: {
    appKey: string | null;
    netKey: string | null;
    echoIntervalSec: number;
    aliveIntervalSec: number;
  } | null;
  wifi: { ssid: string; password: string | null; ip: IpSettings };
  measurement: MeasurementSettings;
}

/** Settings of a device fresh from the factory: DHCP, every wired channel, no LoRa keys yet. */
export function factorySettings(opts: { mac: string; phases: number; lora: boolean }): StoredSettings {
  return {
    lora: opts.lora ? { appKey: null, netKey: null, echoIntervalSec: 60, aliveIntervalSec: 900 } : null,
    wifi: { ssid: `meter-${opts.mac.slice(-5).replace('-', '')}`, password: null, ip: { mode: 'DHCP' } },
    measurement: {
      powerScale: 'kW',
      timeScaleSec: 1,
      activeChannels: (['L1', 'L2', 'L3'] as const).slice(0, Math.min(Math.max(opts.phases, 1), 3)),
      accuracy: '1',
      energyOffsetWh: 0,
      transformationRatio: 1,
      activePowerThresholdW: 2,
    },
  };
}

/** The settings as the device reports them: whether a key or the password is set, never its value. */
export function reportSettings(s: StoredSettings): DeviceSettings {
  return {
    lora: s.lora && {
      appKeySet: s.lora.appKey !== null,
      netKeySet: s.lora.netKey !== null,
      echoIntervalSec: s.lora.echoIntervalSec,
      aliveIntervalSec: s.lora.aliveIntervalSec,
    },
    wifi: { ssid: s.wifi.ssid, passwordSet: s.wifi.password !== null, ip: s.wifi.ip },
    measurement: s.measurement,
  };
}

/** Applies one section; answers why the device refuses it, or null once applied. */
export function applySettings(
  s: StoredSettings,
  w: SettingsWrite,
  phases: number,
): 'NOT_SUPPORTED' | 'INVALID' | null {
  switch (w.section) {
    case 'lora':
      if (!s.lora) return 'NOT_SUPPORTED';
      s.lora = {
        appKey: w.lora.appKey?.toUpperCase() ?? s.lora.appKey,
        netKey: w.lora.netKey?.toUpperCase() ?? s.lora.netKey,
        echoIntervalSec: w.lora.echoIntervalSec,
        aliveIntervalSec: w.lora.aliveIntervalSec,
      };
      return null;
    case 'wifi':
      s.wifi = { ssid: w.wifi.ssid, password: w.wifi.password ?? s.wifi.password, ip: w.wifi.ip };
      return null;
    case 'measurement':
      // A channel the device has not wired cannot measure.
      if (w.measurement.activeChannels.some((c) => Number(c.slice(1)) > phases)) return 'INVALID';
      s.measurement = w.measurement;
      return null;
  }
}

/** Sample meter database of a precision device fresh from the factory. */
export function factoryMeters(): MeterRecord[] {
  const base = {
    TYPE: 'E350',
    CONSTUNIT: 0,
    CONSTTYPE: 0,
    CONTYPE: 0,
    ELM_OUTPUT_TYPE: 0,
    MENERGYTYPE: 0,
    ENERMETHOD: 0,
    CTRATIO: '1',
    VTRATIO: '1',
    CTSNOM: '1',
    VTSNOM: '1',
    FREQ: '50',
  };
  return [
    {
      ...base,
      IDN: '1',
      SNUM: '40012345',
      PRODUCER: 'Landis+Gyr',
      CLASS: '1',
      YMAN: '2019',
      CONSTANT: '1000',
      VOLTAGE: '3x230/400 V',
      CURRENT: '5(60) A',
      CUSTOMER: 'Bakery Novak',
      LOCATION: 'Cellar',
      MTIME: 1_735_689_600,
    },
    {
      ...base,
      IDN: '2',
      SNUM: '71100042',
      PRODUCER: 'Iskra',
      TYPE: 'MT174',
      CLASS: '1',
      YMAN: '2021',
      CONSTANT: '500',
      VOLTAGE: '3x230/400 V',
      CURRENT: '10(100) A',
      CUSTOMER: 'School Hall',
      LOCATION: 'Switchboard 2',
      MTIME: 1_738_368_000,
    },
  ];
}

/** The reply to one command; long-running effects (upgrade) continue after it. */
export async function answerCommand(req: CommandRequest, host: CommandHost): Promise<CommandReply> {
  const type = host.model.profile.type;
  const refuse = (error: 'BUSY' | 'NOT_SUPPORTED' | 'NOT_AVAILABLE' | 'INVALID'): CommandReply => ({
    id: req.id,
    cmd: req.cmd,
    ok: false,
    error,
  });
  switch (req.cmd) {
    case 'HARMONICS':
      return { id: req.id, cmd: req.cmd, ok: true, result: host.model.harmonics(host.nowSec(), host.state) };
    case 'WAVEFORM':
      return { id: req.id, cmd: req.cmd, ok: true, result: host.model.waveform(host.nowSec(), host.state) };
    case 'METERS_UPLOAD':
      if (type !== 3) return refuse('NOT_SUPPORTED');
      return { id: req.id, cmd: req.cmd, ok: true, result: { meters: host.meters } };
    case 'METERS_DOWNLOAD':
      if (type !== 3) return refuse('NOT_SUPPORTED');
      host.setDatabaseUpdate(true);
      await host.sleep(300);
      host.meters = req.meters;
      host.setDatabaseUpdate(false);
      return { id: req.id, cmd: req.cmd, ok: true, result: { count: req.meters.length } };
    case 'FIRMWARE_UPGRADE':
      // Plug meters have no field upgrade; the same version is not offered again.
      if (type === 5 || req.fw === host.fw) return refuse('NOT_AVAILABLE');
      host.startUpgrade(req.id, req.fw);
      return { id: req.id, cmd: req.cmd, ok: true, result: { accepted: true } };
    case 'RELAY':
      if (type !== 2) return refuse('NOT_SUPPORTED');
      host.setRelay(req.state === 'CLOSED');
      return { id: req.id, cmd: req.cmd, ok: true, result: { state: req.state } };
    case 'SETTINGS_READ':
      return { id: req.id, cmd: req.cmd, ok: true, result: reportSettings(host.settings) };
    case 'SETTINGS_WRITE': {
      const refused = applySettings(host.settings, req.settings, host.model.profile.phases);
      if (refused) return refuse(refused);
      return { id: req.id, cmd: req.cmd, ok: true, result: reportSettings(host.settings) };
    }
    case 'NILM_TEACH_START':
      if (type !== 1) return refuse('NOT_SUPPORTED');
      host.nilm.startTeaching(req.name, host.nowSec());
      return { id: req.id, cmd: req.cmd, ok: true, result: { name: req.name } };
    case 'NILM_TEACH_STOP': {
      if (type !== 1) return refuse('NOT_SUPPORTED');
      const seen = host.nilm.stopTeaching(req.name, host.nowSec());
      if (!seen) return refuse('INVALID');
      if (seen.run) host.reportTaughtRun(req.name, seen.run);
      return { id: req.id, cmd: req.cmd, ok: true, result: { name: req.name, edges: seen.edges } };
    }
    case 'NILM_FORGET':
      if (type !== 1) return refuse('NOT_SUPPORTED');
      host.nilm.forget(req.name, req.imprintOnly);
      return { id: req.id, cmd: req.cmd, ok: true, result: { name: req.name } };
    case 'NILM_SETTINGS':
      if (type !== 1) return refuse('NOT_SUPPORTED');
      host.nilm.settings.process = req.process;
      host.nilm.settings.autoLearn = req.autoLearn;
      return { id: req.id, cmd: req.cmd, ok: true, result: { ...host.nilm.settings } };
  }
}

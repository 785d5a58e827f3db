// How a simulated device answers portal commands (cmd/req -> cmd/res), like the firmware does.
import type { CommandReply, CommandRequest, MeterRecord } from '@meterportal/protocol';
import type { MeterModel, ModelState } from './model';

/** What a command may change or trigger on the device. */
export interface CommandHost {
  model: MeterModel;
  state: ModelState;
  fw: string;
  meters: MeterRecord[];
  nowSec(): number;
  /** Switch the relay and report it as a DISCONNECTOR event. */
  setRelay(closed: boolean): void;
  /** Report DATABASE_UPDATE while the meter database is rewritten. */
  setDatabaseUpdate(active: boolean): void;
  /** Run the firmware upgrade with progress messages, then reconnect with the new version. */
  startUpgrade(id: string, fw: string): void;
  /** Wait, in wall-clock ms. */
  sleep(ms: number): Promise<void>;
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
  }
}

import {
  AppliancePhase,
  DeviceType,
  teachOutcome,
  type ApplianceEntry,
  type DeviceMessage,
  type NilmSettings,
  type PowerEdge,
  type TeachOutcome,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { isUniqueViolation } from '../db/unique-violation';
import { Conflict, DataNotFound, DeviceNotResponding, NotFound } from '../http/errors';
import type { CommandsService } from '../precision/commands.service';
import { applianceFigures, parseImprint, sameName } from './appliances-fns';
import type { ApplianceRow, AppliancesRepository } from './appliances.repository';

/** How far around a range stored events are read: their own time may differ from arrival. */
const ARRIVAL_SLACK_MS = 86_400_000;

/**
 * Appliances (NILM) of household meters (type 1) for their owners: the list with imprints and
 * figures from the stored NILM events, teaching by the device's edge report, removal, and the
 * NILM switches. Anyone else, and any other device type, meets absence.
 */
export function appliancesService(deps: {
  repo: AppliancesRepository;
  devices: DevicesService;
  commands: CommandsService;
  clock: Clock;
}) {
  const { repo, devices, commands, clock } = deps;

  async function ownMeter(user: SessionUser, token: string) {
    const d = await devices.resolve(user, token);
    if (d.owner !== 1 || d.type !== DeviceType.SmartMeter) throw new NotFound('Device not found');
    return d;
  }

  const find = (rows: readonly ApplianceRow[], name: string) => rows.find((r) => sameName(r.name, name));

  function entry(r: ApplianceRow, figures: ReturnType<typeof applianceFigures>): ApplianceEntry {
    const f = figures.get(r.name);
    const phase = AppliancePhase.safeParse(r.phase ?? f.phase);
    return {
      name: r.name,
      phase: phase.success ? phase.data : null,
      origin: r.origin === 'TAUGHT' ? 'TAUGHT' : 'LEARNED',
      imprint: parseImprint(r.imprint),
      runs: f.runs,
      runtimeSec: f.runtimeSec,
      energyWh: f.energyWh,
      lastRunMs: f.lastRunMs,
    };
  }

  /**
   * A name is taken when an appliance of that name has an imprint; one without (learned by the
   * meter, or its imprint removed) may be taught under its name.
   */
  function refuseTaken(rows: readonly ApplianceRow[], name: string): void {
    const existing = find(rows, name);
    if (existing && existing.imprint !== null) throw new Conflict('Object alredy exist');
  }

  return {
    /** Settings and appliances of an owned household meter, with figures over [fromMs, toMs). */
    async list(user: SessionUser, token: string, fromMs: number, toMs: number) {
      const d = await ownMeter(user, token);
      const [rows, events] = await Promise.all([
        repo.list(d.id),
        repo.nilmEvents(d.id, fromMs - ARRIVAL_SLACK_MS, toMs + ARRIVAL_SLACK_MS),
      ]);
      const figures = applianceFigures(
        events.map((e) => e.data),
        fromMs,
        toMs,
      );
      const settings: NilmSettings = { process: d.nilm_process === 1, autoLearn: d.nilm_autolearn === 1 };
      return { settings, appliances: rows.map((r) => entry(r, figures)) };
    },

    /** Asks the meter to listen for the edges of a new appliance; a taken name is refused first. */
    async teachStart(user: SessionUser, token: string, name: string): Promise<{ name: string }> {
      const d = await ownMeter(user, token);
      refuseTaken(await repo.list(d.id), name);
      const reply = await commands.call(d.mac, { cmd: 'NILM_TEACH_START', name });
      if (!reply.ok || reply.cmd !== 'NILM_TEACH_START') throw new DeviceNotResponding();
      return { name };
    },

    /**
     * Asks the meter for the edges it saw since teaching started. Exactly two make the imprint,
     * which is stored; more, fewer or none are answered with their outcome and nothing is kept.
     */
    async teachFinish(
      user: SessionUser,
      token: string,
      name: string,
    ): Promise<{ outcome: TeachOutcome; edges: PowerEdge[]; appliance: ApplianceEntry | null }> {
      const d = await ownMeter(user, token);
      const reply = await commands.call(d.mac, { cmd: 'NILM_TEACH_STOP', name });
      if (!reply.ok || reply.cmd !== 'NILM_TEACH_STOP') throw new DeviceNotResponding();
      const edges = reply.result.edges;
      const outcome = teachOutcome(edges.length);
      if (outcome !== 'LEARNED') return { outcome, edges, appliance: null };
      const imprint = JSON.stringify(edges);
      const phase = edges[0]!.phase;
      // The meter may report the taught run (and so name the appliance) before its answer arrives,
      // so a row that appeared meanwhile without an imprint is given this one.
      let existing: ApplianceRow | undefined;
      for (let attempt = 0; ; attempt++) {
        const rows = await repo.list(d.id);
        refuseTaken(rows, name);
        existing = find(rows, name);
        try {
          if (existing) await repo.setImprint(d.id, existing.name, imprint, phase);
          else await repo.insert(d.id, { name, phase, origin: 'TAUGHT', imprint }, clock.nowMs());
          break;
        } catch (err) {
          if (!isUniqueViolation(err) || attempt > 0) throw err;
        }
      }
      const row: ApplianceRow = { name: existing?.name ?? name, phase, origin: 'TAUGHT', imprint };
      return { outcome, edges, appliance: entry(row, applianceFigures([], 0, 0)) };
    },

    /** The meter drops the appliance's imprint; the appliance stays listed without one. */
    async removeImprint(user: SessionUser, token: string, name: string): Promise<{ name: string }> {
      const d = await ownMeter(user, token);
      const existing = find(await repo.list(d.id), name);
      if (!existing || existing.imprint === null) throw new DataNotFound();
      await commands.call(d.mac, { cmd: 'NILM_FORGET', name: existing.name, imprintOnly: true });
      await repo.setImprint(d.id, existing.name, null);
      return { name: existing.name };
    },

    /** The meter forgets the appliance and it leaves the list. */
    async remove(user: SessionUser, token: string, name: string): Promise<{ name: string }> {
      const d = await ownMeter(user, token);
      const existing = find(await repo.list(d.id), name);
      if (!existing) throw new DataNotFound();
      await commands.call(d.mac, { cmd: 'NILM_FORGET', name: existing.name, imprintOnly: false });
      await repo.remove(d.id, existing.name);
      return { name: existing.name };
    },

    /** Sends the NILM switches to the meter and keeps what it confirmed in its device entry. */
    async saveSettings(user: SessionUser, token: string, wanted: NilmSettings): Promise<NilmSettings> {
      const d = await ownMeter(user, token);
      const reply = await commands.call(d.mac, { cmd: 'NILM_SETTINGS', ...wanted });
      if (!reply.ok || reply.cmd !== 'NILM_SETTINGS') throw new DeviceNotResponding();
      const { process, autoLearn } = reply.result;
      await repo.setSettings(d.id, process, autoLearn);
      return { process, autoLearn };
    },

    /** An appliance the meter names in a NILM event and the portal does not know yet was learned by the meter. */
    async onDeviceMessage(message: DeviceMessage, deviceId: number): Promise<void> {
      if (message.kind !== 'event' || message.payload.type !== 'NILM') return;
      const { name, phase } = message.payload.data;
      if (find(await repo.list(deviceId), name)) return;
      try {
        await repo.insert(deviceId, { name, phase, origin: 'LEARNED', imprint: null }, clock.nowMs());
      } catch (err) {
        // Two events of a new appliance raced; the first one stored it.
        if (!isUniqueViolation(err)) throw err;
      }
    },
  };
}
/** Appliances of household meters. */
export type AppliancesService = ReturnType<typeof appliancesService>;

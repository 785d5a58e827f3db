import {
  AlarmRuleDefinition,
  type Alarm,
  type AlarmLanguage,
  type AlarmRule,
  type AlarmSeverity,
  type AlarmState,
} from '@meterportal/protocol';
import type { Session } from '../auth/auth.service';
import type { Clock } from '../clock';
import type { DevicesService } from '../devices/devices.service';
import { Conflict, NotFound } from '../http/errors';
import type { AlarmsRepository } from './alarms.repository';

/** How many rules one user may keep on one device. */
export const MAX_RULES_PER_DEVICE = 100;

/** Alarm rules and alarms of the signed-in user's devices. */
export function alarmsService(deps: {
  repo: AlarmsRepository;
  devices: DevicesService;
  clock: Clock;
  /** Told when a device's rules changed, so the evaluator reloads them. */
  onRulesChanged?: (deviceId: number) => Promise<void>;
}) {
  const { repo, devices, clock } = deps;

  const changed = (deviceId: number) => deps.onRulesChanged?.(deviceId);

  return {
    async listRules(user: Session, deviceToken: string): Promise<AlarmRule[]> {
      const device = await devices.resolve(user, deviceToken);
      const rows = await repo.rulesOf(user.userId, device.id);
      return rows.map((r) => ({
        ID: r.id,
        lang: r.lang as AlarmLanguage,
        rule: AlarmRuleDefinition.parse(JSON.parse(r.definition)),
        updated: Number(r.updated_at_ms),
      }));
    },

    async saveRule(
      user: Session,
      req: { device_token: string; ID?: number | undefined; lang: AlarmLanguage; rule: AlarmRuleDefinition },
    ): Promise<number> {
      const device = await devices.resolve(user, req.device_token);
      const fields = {
        userId: user.userId,
        deviceId: device.id,
        definition: JSON.stringify(req.rule),
        lang: req.lang,
        nowMs: clock.nowMs(),
      };
      let id: number;
      if (req.ID !== undefined) {
        if (!(await repo.updateRule({ ...fields, id: req.ID }))) throw new NotFound('Rule not found');
        id = req.ID;
      } else {
        if ((await repo.rulesOf(user.userId, device.id)).length >= MAX_RULES_PER_DEVICE)
          throw new Conflict(`At most ${MAX_RULES_PER_DEVICE} rules per device`);
        id = await repo.insertRule(fields);
      }
      await changed(device.id);
      return id;
    },

    async deleteRule(user: Session, deviceToken: string, id: number) {
      const device = await devices.resolve(user, deviceToken);
      if (!(await repo.deleteRule(id, user.userId, device.id, clock.nowMs())))
        throw new NotFound('Rule not found');
      await changed(device.id);
    },

    async list(
      user: Session,
      req: {
        device_token: string;
        state?: AlarmState | 'active' | undefined;
        severity?: AlarmSeverity | undefined;
        from?: number | undefined;
        to?: number | undefined;
        limit: number;
      },
    ): Promise<Alarm[]> {
      const device = await devices.resolve(user, req.device_token);
      const rows = await repo.list({
        userId: user.userId,
        deviceId: device.id,
        ...(req.state ? { states: req.state === 'active' ? ['raised', 'acknowledged'] : [req.state] } : {}),
        ...(req.severity ? { severity: req.severity } : {}),
        ...(req.from !== undefined ? { fromMs: req.from * 1000 } : {}),
        ...(req.to !== undefined ? { toMs: req.to * 1000 } : {}),
        limit: req.limit,
      });
      const ms = (v: number | null) => (v === null ? null : Number(v));
      return rows.map((r) => ({
        ID: r.id,
        ID_rule: r.rule_id,
        name: r.name,
        severity: r.severity as AlarmSeverity,
        state: r.state as AlarmState,
        value: r.value,
        raised: Number(r.raised_at_ms),
        acknowledged: ms(r.acked_at_ms),
        acknowledgedBy: r.acked_by,
        note: r.ack_note,
        cleared: ms(r.cleared_at_ms),
      }));
    },

    async acknowledge(user: Session, req: { device_token: string; ID: number; note: string }): Promise<void> {
      const device = await devices.resolve(user, req.device_token);
      const ok = await repo.acknowledge({
        id: req.ID,
        userId: user.userId,
        deviceId: device.id,
        by: user.login,
        note: req.note,
        atMs: clock.nowMs(),
      });
      if (ok) return;
      const alarm = await repo.alarm(req.ID, user.userId, device.id);
      if (!alarm) throw new NotFound('Alarm not found');
      throw new Conflict(`Alarm is ${alarm.state}`);
    },
  };
}
/** Alarm rules and alarms. */
export type AlarmsService = ReturnType<typeof alarmsService>;

import {
  AlarmAckRequest,
  AlarmListRequest,
  AlarmListResponse,
  AlarmRuleDeleteRequest,
  AlarmRuleListRequest,
  AlarmRuleListResponse,
  AlarmRuleSaveRequest,
  AlarmRuleSaveResponse,
} from './alarms';
import { OkEnvelope } from './common';
import type { RouteDef } from './routes';

/** Alarm rules and alarms of a device (tools area). */
export const alarmsRoutes = {
  alarmRuleList: {
    door: 'read',
    method: 'POST',
    path: '/tools/alarms/rules',
    session: 'user',
    tag: 'alarms',
    summary: "The caller's alarm rules on a device",
    body: AlarmRuleListRequest,
    response: AlarmRuleListResponse,
  },
  alarmList: {
    door: 'read',
    method: 'POST',
    path: '/tools/alarms',
    session: 'user',
    tag: 'alarms',
    summary: "The caller's alarms on a device, newest first, filtered by state, severity and time",
    body: AlarmListRequest,
    response: AlarmListResponse,
  },
  alarmRuleSave: {
    door: 'write',
    method: 'POST',
    path: '/tools/alarms/rules',
    session: 'user',
    tag: 'alarms',
    summary: 'Create an alarm rule, or change rule ID',
    body: AlarmRuleSaveRequest,
    response: AlarmRuleSaveResponse,
  },
  alarmRuleDelete: {
    door: 'write',
    method: 'DELETE',
    path: '/tools/alarms/rules',
    session: 'user',
    tag: 'alarms',
    summary: 'Delete an alarm rule; its open alarms are cleared',
    body: AlarmRuleDeleteRequest,
    response: OkEnvelope,
  },
  alarmAck: {
    door: 'write',
    method: 'POST',
    path: '/tools/alarms/acknowledge',
    session: 'user',
    tag: 'alarms',
    summary: 'Acknowledge a raised alarm with a note',
    body: AlarmAckRequest,
    response: OkEnvelope,
  },
} as const satisfies Record<string, RouteDef>;

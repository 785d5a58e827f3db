import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side alarm calls: rules and alarms of a device. */
export function alarmsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.alarmRuleList, async (req) => ({
      status: 'OK' as const,
      data: await s.alarms.listRules(req.user, req.body.device_token),
    }));
    route(app, routes.alarmList, async (req) => ({
      status: 'OK' as const,
      data: await s.alarms.list(req.user, req.body),
    }));
  };
}

/** Write-side alarm calls: rule changes and acknowledgement. */
export function alarmsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.alarmRuleSave, async (req) => ({
      status: 'OK' as const,
      data: { ID: await s.alarms.saveRule(req.user, req.body) },
    }));
    route(app, routes.alarmRuleDelete, async (req) => {
      await s.alarms.deleteRule(req.user, req.body.device_token, req.body.ID);
      return { status: 'OK' as const };
    });
    route(app, routes.alarmAck, async (req) => {
      await s.alarms.acknowledge(req.user, req.body);
      return { status: 'OK' as const };
    });
  };
}

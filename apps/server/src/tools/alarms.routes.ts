import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';

/** Read-side alarm calls: rules and alarms of a device. */
export function alarmsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.alarmRuleList, (req) => ok(s.alarms.listRules(req.user, req.body.device_token)));
    route(app, routes.alarmList, (req) => ok(s.alarms.list(req.user, req.body)));
  };
}

/** Write-side alarm calls: rule changes and acknowledgement. */
export function alarmsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.alarmRuleSave, async (req) => ({
      status: 'OK' as const,
      data: { ID: await s.alarms.saveRule(req.user, req.body) },
    }));
    route(app, routes.alarmRuleDelete, (req) =>
      okAfter(s.alarms.deleteRule(req.user, req.body.device_token, req.body.ID)),
    );
    route(app, routes.alarmAck, (req) => okAfter(s.alarms.acknowledge(req.user, req.body)));
  };
}

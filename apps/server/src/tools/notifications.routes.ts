import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';

/** Read-side notification calls. */
export function notificationsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.notifications, (req) =>
      ok(s.notifications.latest(req.user, req.body.device_token, req.body.limit)),
    );
    route(app, routes.webexSpaces, () => ok(s.notifications.webexSpaces()));
    route(app, routes.notificationHistory, (req) => ok(s.notifications.history(req.user, req.body)));
    route(app, routes.emailDestination, async () => ({
      status: 'OK' as const,
      data: s.notifications.emailAvailable(),
    }));
    route(app, routes.pairList, (req) => ok(s.notifications.listPairs(req.user, req.body.device_token)));
  };
}

/** Write-side notification calls. */
export function notificationsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.pairAdd, async (req) => ({
      status: 'OK' as const,
      data: { ID_notify: await s.notifications.addPair(req.user, req.body) },
    }));
    route(app, routes.notificationRead, (req) => okAfter(s.notifications.markRead(req.user, req.body.ids)));
    route(app, routes.pairDelete, (req) =>
      okAfter(s.notifications.deletePair(req.user, req.body.device_token, req.body.ID)),
    );
  };
}

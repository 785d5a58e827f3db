import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** A report file as a download that no cache keeps. */
function sendPdf(reply: FastifyReply, file: { fileName: string; bytes: Uint8Array }): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .type('application/pdf')
    .send(file.bytes);
}

/** Read-side report calls: a PDF of a month, the schedules, the kept reports. */
export function reportsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.reportDownload, async (req, reply) => {
      const file = await s.history.heavyReads.run(req.user.tokenHash, () =>
        s.reports.download(req.user, req.body),
      );
      return sendPdf(reply, file);
    });
    route(app, routes.reportFolderDownload, async (req, reply) => {
      const file = await s.history.heavyReads.run(req.user.tokenHash, () =>
        s.reports.downloadFolder(req.user, req.body),
      );
      return sendPdf(reply, file);
    });
    route(app, routes.reportSchedules, async (req) => {
      return { status: 'OK' as const, data: await s.reports.schedules(req.user) };
    });
    route(app, routes.reportsKept, async (req) => {
      return { status: 'OK' as const, data: await s.reports.kept(req.user) };
    });
    route(app, routes.reportKeptDownload, async (req, reply) => {
      const file = await s.reports.keptFile(req.user, req.body.id);
      return sendPdf(reply, file);
    });
  };
}

/** Write-side report calls: schedules are made, changed and removed. */
export function reportsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.reportScheduleCreate, async (req) => {
      return { status: 'OK' as const, data: { id: await s.reports.createSchedule(req.user, req.body) } };
    });
    route(app, routes.reportFolderScheduleCreate, async (req) => {
      return {
        status: 'OK' as const,
        data: { id: await s.reports.createFolderSchedule(req.user, req.body) },
      };
    });
    route(app, routes.reportScheduleUpdate, async (req) => {
      await s.reports.updateSchedule(req.user, req.body);
      return { status: 'OK' as const };
    });
    route(app, routes.reportScheduleDelete, async (req) => {
      await s.reports.deleteSchedule(req.user, req.body.id);
      return { status: 'OK' as const };
    });
  };
}

import {
  DeviceType,
  REPORT_MAX_SCHEDULES,
  type FolderReportRequest,
  type FolderReportScheduleCreateRequest,
  type KeptReport,
  type MessageLanguage,
  type ReportKind,
  type ReportRequest,
  type ReportSchedule,
  type ReportScheduleCreateRequest,
  type ReportScheduleUpdateRequest,
} from '@meterportal/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionUser } from '../devices/devices.service';
import { InvalidRequest, NotFound } from '../http/errors';
import type { ReportPeriod } from './report-model';
import { renderReportPdf } from './report-pdf';
import {
  asFolderKind,
  asKind,
  asLanguage,
  deviceFileName,
  folderFileName,
  folderPath,
  storedFolder,
} from './report-files';
import { devicesInFolder, folderReportModel, requireFolder, userTree } from './report-folder';
import { reportScheduler, type ReportsDeps } from './report-scheduler';

export { lastWholePeriod, startOfWeek } from './report-scheduler';

/** A PDF file to answer. */
export interface ReportFile {
  fileName: string;
  bytes: Buffer;
}

/** PDF reports: downloads, schedules that e-mail or keep them, and the scheduler that runs them. */
export function reportsService(deps: ReportsDeps) {
  const { repo, models, devices, clock, tz } = deps;
  const scheduler = reportScheduler(deps);

  async function render(
    user: SessionUser,
    token: string,
    kind: ReportKind,
    period: ReportPeriod,
    language: MessageLanguage,
  ) {
    const model = await models.build(user, token, kind, period, language);
    const bytes = await renderReportPdf(model);
    return { model, bytes, fileName: deviceFileName(kind, model.device.mac, period, tz) };
  }

  /** Stores a new schedule of a device or a folder, refused beyond the most one user may keep. */
  async function addSchedule(
    user: SessionUser,
    target: { device_id: number; folder: null } | { device_id: null; folder: string },
    kind: ReportKind,
    req: Pick<ReportScheduleCreateRequest, 'every' | 'delivery' | 'email' | 'language'>,
  ): Promise<number> {
    if ((await repo.countSchedules(user.userId)) >= REPORT_MAX_SCHEDULES)
      throw new InvalidRequest(`Invalid request: at most ${REPORT_MAX_SCHEDULES} schedules`);
    return repo.insertSchedule({
      user_id: user.userId,
      ...target,
      kind,
      every: req.every,
      delivery: req.delivery,
      email: req.email ?? null,
      language: req.language,
      created_at_ms: clock.nowMs(),
    });
  }

  const service = {
    async download(user: SessionUser, req: ReportRequest): Promise<ReportFile> {
      const period = models.monthPeriod(req.month);
      if (period.fromSec * 1000 > clock.nowMs())
        throw new InvalidRequest('Invalid request at month: not begun yet');
      const r = await render(user, req.token, req.kind, period, req.language);
      return { fileName: r.fileName, bytes: r.bytes };
    },

    /** A folder's report of a month; a folder not in the user's hierarchy is absent. */
    async downloadFolder(user: SessionUser, req: FolderReportRequest): Promise<ReportFile> {
      const period = models.monthPeriod(req.month);
      if (period.fromSec * 1000 > clock.nowMs())
        throw new InvalidRequest('Invalid request at month: not begun yet');
      const { folder, kind, language } = req;
      const model = await folderReportModel({ devices, models }, user, folder, kind, period, language);
      return { fileName: folderFileName(kind, folder, period, tz), bytes: await renderReportPdf(model) };
    },

    async schedules(user: SessionUser): Promise<ReportSchedule[]> {
      const rows = await repo.listSchedules(user.userId);
      const list = await devices.deviceList(user.userId);
      const assigned = await devices.assigned(user.userId);
      const byId = new Map(assigned.map((d) => [d.id, list.find((e) => e.mac === d.mac)]));
      const tree = rows.some((s) => s.folder !== null) ? await userTree(devices, user) : [];
      return rows.flatMap((s): ReportSchedule[] => {
        const common = {
          id: s.id,
          kind: asKind(s.kind),
          every: s.every === 'WEEKLY' ? ('WEEKLY' as const) : ('MONTHLY' as const),
          delivery: s.delivery === 'EMAIL' ? ('EMAIL' as const) : ('KEEP' as const),
          email: s.email,
          language: asLanguage(s.language),
          createdMs: Number(s.created_at_ms),
          lastPeriodMs: s.last_period_sec === null ? null : Number(s.last_period_sec) * 1000,
        };
        if (s.folder !== null) {
          const path = folderPath(s.folder);
          const missing = devicesInFolder(tree, path) === null;
          return [{ ...common, token: null, mac: null, folder: path, title: path.join(' / '), missing }];
        }
        const d = s.device_id === null ? undefined : byId.get(s.device_id);
        if (!d) return [];
        return [
          { ...common, token: d.token, mac: d.mac, folder: null, title: d.title ?? d.mac, missing: false },
        ];
      });
    },

    async createSchedule(user: SessionUser, req: ReportScheduleCreateRequest): Promise<number> {
      const device = await devices.resolve(user, req.token);
      if (req.kind === 'POWER_QUALITY' && device.type !== DeviceType.Precision)
        throw new InvalidRequest('Invalid request at kind: power quality reports are for analyzers (type 3)');
      return addSchedule(user, { device_id: device.id, folder: null }, req.kind, req);
    },

    /** A schedule of a folder's report; a folder not in the user's tree is absent. */
    async createFolderSchedule(user: SessionUser, req: FolderReportScheduleCreateRequest): Promise<number> {
      await requireFolder(devices, user, req.folder);
      return addSchedule(user, { device_id: null, folder: storedFolder(req.folder) }, req.kind, req);
    },

    /**
     * Changes a schedule's timing, delivery and language, and a folder schedule's folder. A
     * schedule that is not the user's is absent; periods that found no folder are made again.
     */
    async updateSchedule(user: SessionUser, req: ReportScheduleUpdateRequest): Promise<void> {
      const row = await repo.findSchedule(user.userId, req.id);
      if (!row) throw new NotFound('Schedule not found');
      if (req.folder && row.folder === null)
        throw new InvalidRequest('Invalid request at folder: the schedule reports a device');
      if (req.folder) await requireFolder(devices, user, req.folder);
      const changed = await repo.updateSchedule(user.userId, req.id, {
        every: req.every,
        delivery: req.delivery,
        email: req.email ?? null,
        language: req.language,
        ...(req.folder ? { folder: storedFolder(req.folder) } : {}),
      });
      if (!changed) throw new NotFound('Schedule not found');
      await repo.reopenGoneRuns(req.id);
    },

    async deleteSchedule(user: SessionUser, id: number): Promise<void> {
      if (!(await repo.deleteSchedule(user.userId, id))) throw new NotFound('Schedule not found');
    },

    async kept(user: SessionUser): Promise<KeptReport[]> {
      const rows = await repo.listFiles(user.userId);
      const assigned = new Map((await devices.assigned(user.userId)).map((d) => [d.id, d]));
      return rows.flatMap((r): KeptReport[] => {
        const common = {
          id: r.id,
          kind: asKind(r.kind),
          language: asLanguage(r.language),
          fromMs: Number(r.from_sec) * 1000,
          toMs: Number(r.to_sec) * 1000,
          createdMs: Number(r.created_at_ms),
          sizeBytes: Number(r.size_bytes),
        };
        if (r.folder !== null) {
          const path = folderPath(r.folder);
          return [{ ...common, mac: null, folder: path, title: path.join(' / ') }];
        }
        const d = r.device_id === null ? undefined : assigned.get(r.device_id);
        if (!d) return [];
        return [{ ...common, mac: d.mac, folder: null, title: d.title ?? d.mac }];
      });
    },

    async keptFile(user: SessionUser, id: number): Promise<ReportFile> {
      const r = await repo.findFile(user.userId, id);
      if (!r) throw new NotFound('Report not found');
      const every = Number(r.to_sec) - Number(r.from_sec) <= 8 * 86_400 ? 'WEEK' : 'MONTH';
      const period: ReportPeriod = { fromSec: Number(r.from_sec), toSec: Number(r.to_sec), every };
      if (r.folder !== null) {
        const fileName = folderFileName(asFolderKind(r.kind), folderPath(r.folder), period, tz);
        return { fileName, bytes: Buffer.from(r.pdf) };
      }
      const d = (await devices.assigned(user.userId)).find((a) => a.id === r.device_id);
      if (!d) throw new NotFound('Report not found');
      return { fileName: deviceFileName(asKind(r.kind), d.mac, period, tz), bytes: Buffer.from(r.pdf) };
    },

    /** Makes the reports that are due now (see `reportScheduler`). */
    runDue: (log?: FastifyBaseLogger) => scheduler.runDue(log),
    /** Runs due reports now and then every minute; answers the function that stops it. */
    start: (opts?: { log?: FastifyBaseLogger; intervalMs?: number }) => scheduler.start(opts),
  };
  return service;
}
/** PDF reports and their schedules. */
export type ReportsService = ReturnType<typeof reportsService>;

import {
  DeviceType,
  REPORT_KEEP_DAYS,
  REPORT_KINDS,
  REPORT_MAX_SCHEDULES,
  type FolderReportRequest,
  type KeptReport,
  type MessageLanguage,
  type ReportKind,
  type ReportRequest,
  type ReportSchedule,
  type ReportScheduleCreateRequest,
} from '@meterportal/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { UsersRepository } from '../auth/users.repository';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { fromWall, startOfDay, startOfMonth, wallTime } from '../history/calendar';
import { InvalidRequest, NotFound } from '../http/errors';
import type { Mailer } from '../tools/mailer';
import type { ReportModels, ReportPeriod } from './report-model';
import { renderReportPdf } from './report-pdf';
import { folderReportModel } from './report-folder';
import { REPORT_WORDS } from './report-texts';
import type { ReportsRepository, ScheduleRow } from './reports.repository';

/** A PDF file to answer. */
export interface ReportFile {
  fileName: string;
  bytes: Buffer;
}

/** A failed scheduled report is tried again after this long, at most this many times. */
const RETRY_AFTER_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;

/** Start of the local week (Monday 00:00) holding tsSec. */
export function startOfWeek(tsSec: number, tz: string): number {
  const w = wallTime(startOfDay(tsSec, tz), tz);
  const dow = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  return fromWall(tz, w.year, w.month, w.day - ((dow + 6) % 7));
}

/** The last whole period before nowSec of a schedule: the previous month or the previous week. */
export function lastWholePeriod(every: 'MONTHLY' | 'WEEKLY', nowSec: number, tz: string): ReportPeriod {
  if (every === 'MONTHLY') {
    const toSec = startOfMonth(nowSec, tz);
    return { fromSec: startOfMonth(toSec - 1, tz), toSec, every: 'MONTH' };
  }
  const toSec = startOfWeek(nowSec, tz);
  const w = wallTime(toSec, tz);
  return { fromSec: fromWall(tz, w.year, w.month, w.day - 7), toSec, every: 'WEEK' };
}

const asLanguage = (l: string): MessageLanguage => (l === 'sk' || l === 'de' ? l : 'en');
const asKind = (k: string): ReportKind => REPORT_KINDS.find((r) => r === k) ?? 'ENERGY_COST';

/** File name of a report: kind, device MAC and first local day. */
function fileName(kind: ReportKind, mac: string, period: ReportPeriod, tz: string): string {
  const w = wallTime(period.fromSec, tz);
  const day = `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  return `${kind.toLowerCase().replace('_', '-')}-${mac}-${day}.pdf`;
}

/** PDF reports: downloads, schedules that e-mail or keep them, and the scheduler that runs them. */
export function reportsService(deps: {
  repo: ReportsRepository;
  models: ReportModels;
  devices: DevicesService;
  users: UsersRepository;
  mailer: Mailer;
  clock: Clock;
  tz: string;
}) {
  const { repo, models, devices, users, mailer, clock, tz } = deps;

  async function render(
    user: SessionUser,
    token: string,
    kind: ReportKind,
    period: ReportPeriod,
    language: MessageLanguage,
  ) {
    const model = await models.build(user, token, kind, period, language);
    const bytes = await renderReportPdf(model);
    return { model, bytes, fileName: fileName(kind, model.device.mac, period, tz) };
  }

  /** Makes one schedule's report of a period and delivers it; the state to store. */
  async function runOne(s: ScheduleRow, period: ReportPeriod): Promise<'DONE' | 'GONE'> {
    const user = await users.findById(s.user_id);
    if (!user) return 'GONE';
    const session: SessionUser = { userId: user.id, login: user.login };
    const entry = (await devices.deviceList(user.id)).find((d) => d.mac === macOf.get(s.device_id));
    if (!entry) return 'GONE';
    const language = asLanguage(s.language);
    const kind = asKind(s.kind);
    const r = await render(session, entry.token, kind, period, language);
    if (s.delivery === 'EMAIL') {
      if (!s.email) return 'GONE';
      const w = REPORT_WORDS[language];
      await mailer.send({
        to: s.email,
        subject: `${w.mailSubject}: ${w.titles[kind]} · ${r.model.device.title}`,
        text: `${w.titles[kind]}\n${w.device}: ${r.model.device.title} (${r.model.device.mac})\n\n${w.mailText}`,
        attachments: [{ filename: r.fileName, content: r.bytes, contentType: 'application/pdf' }],
      });
    } else {
      await repo.insertFile({
        user_id: s.user_id,
        device_id: s.device_id,
        kind,
        language,
        from_sec: period.fromSec,
        to_sec: period.toSec,
        created_at_ms: clock.nowMs(),
        pdf: r.bytes,
      });
    }
    return 'DONE';
  }

  /** MAC of device ids the scheduler has seen (filled from the users' device lists). */
  const macOf = new Map<number, string>();

  const service = {
    async download(user: SessionUser, req: ReportRequest): Promise<ReportFile> {
      const period = models.monthPeriod(req.month);
      if (period.fromSec * 1000 > clock.nowMs())
        throw new InvalidRequest('Invalid request at month: not begun yet');
      const r = await render(user, req.token, req.kind, period, req.language);
      return { fileName: r.fileName, bytes: r.bytes };
    },

    /** A folder's energy and cost of a month; a folder not in the user's hierarchy is absent. */
    async downloadFolder(user: SessionUser, req: FolderReportRequest): Promise<ReportFile> {
      const period = models.monthPeriod(req.month);
      if (period.fromSec * 1000 > clock.nowMs())
        throw new InvalidRequest('Invalid request at month: not begun yet');
      const model = await folderReportModel({ devices, models }, user, req.folder, period, req.language);
      const w = wallTime(period.fromSec, tz);
      const name = req.folder
        .join('-')
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9-]+/g, '_')
        .slice(0, 80);
      return {
        fileName: `folder-${name}-${w.year}-${String(w.month).padStart(2, '0')}.pdf`,
        bytes: await renderReportPdf(model),
      };
    },

    async schedules(user: SessionUser): Promise<ReportSchedule[]> {
      const rows = await repo.listSchedules(user.userId);
      const list = await devices.deviceList(user.userId);
      const assigned = await devices.assigned(user.userId);
      const byId = new Map(assigned.map((d) => [d.id, list.find((e) => e.mac === d.mac)]));
      return rows.flatMap((s) => {
        const d = byId.get(s.device_id);
        if (!d) return [];
        return [
          {
            id: s.id,
            token: d.token,
            mac: d.mac,
            title: d.title ?? d.mac,
            kind: asKind(s.kind),
            every: s.every === 'WEEKLY' ? ('WEEKLY' as const) : ('MONTHLY' as const),
            delivery: s.delivery === 'EMAIL' ? ('EMAIL' as const) : ('KEEP' as const),
            email: s.email,
            language: asLanguage(s.language),
            createdMs: Number(s.created_at_ms),
            lastPeriodMs: s.last_period_sec === null ? null : Number(s.last_period_sec) * 1000,
          },
        ];
      });
    },

    async createSchedule(user: SessionUser, req: ReportScheduleCreateRequest): Promise<number> {
      const device = await devices.resolve(user, req.token);
      if (req.kind === 'POWER_QUALITY' && device.type !== DeviceType.Precision)
        throw new InvalidRequest('Invalid request at kind: power quality reports are for analyzers (type 3)');
      if ((await repo.countSchedules(user.userId)) >= REPORT_MAX_SCHEDULES)
        throw new InvalidRequest(`Invalid request: at most ${REPORT_MAX_SCHEDULES} schedules`);
      return repo.insertSchedule({
        user_id: user.userId,
        device_id: device.id,
        kind: req.kind,
        every: req.every,
        delivery: req.delivery,
        email: req.email ?? null,
        language: req.language,
        created_at_ms: clock.nowMs(),
      });
    },

    async deleteSchedule(user: SessionUser, id: number): Promise<void> {
      if (!(await repo.deleteSchedule(user.userId, id))) throw new NotFound('Schedule not found');
    },

    async kept(user: SessionUser): Promise<KeptReport[]> {
      const rows = await repo.listFiles(user.userId);
      const assigned = new Map((await devices.assigned(user.userId)).map((d) => [d.id, d]));
      return rows.flatMap((r) => {
        const d = assigned.get(r.device_id);
        if (!d) return [];
        return [
          {
            id: r.id,
            mac: d.mac,
            title: d.title ?? d.mac,
            kind: asKind(r.kind),
            language: asLanguage(r.language),
            fromMs: Number(r.from_sec) * 1000,
            toMs: Number(r.to_sec) * 1000,
            createdMs: Number(r.created_at_ms),
            sizeBytes: Number(r.size_bytes),
          },
        ];
      });
    },

    async keptFile(user: SessionUser, id: number): Promise<ReportFile> {
      const r = await repo.findFile(user.userId, id);
      const d = r && (await devices.assigned(user.userId)).find((a) => a.id === r.device_id);
      if (!r || !d) throw new NotFound('Report not found');
      const period: ReportPeriod = { fromSec: Number(r.from_sec), toSec: Number(r.to_sec), every: 'MONTH' };
      return { fileName: fileName(asKind(r.kind), d.mac, period, tz), bytes: Buffer.from(r.pdf) };
    },

    /**
     * Makes the reports that are due: for each schedule the last whole period before now, when
     * it ended after the schedule was made and no run has claimed it. A period missed while the
     * portal was down is made once on the next pass; older missed periods are not.
     */
    async runDue(log?: FastifyBaseLogger): Promise<number> {
      const nowMs = clock.nowMs();
      const nowSec = Math.floor(nowMs / 1000);
      let made = 0;
      for (const s of await repo.allSchedules()) {
        const every = s.every === 'WEEKLY' ? 'WEEKLY' : 'MONTHLY';
        const period = lastWholePeriod(every, nowSec, tz);
        if (period.toSec * 1000 <= Number(s.created_at_ms)) continue;
        if (!(await repo.claimRun(s.id, period.fromSec, nowMs, RETRY_AFTER_MS, MAX_ATTEMPTS))) continue;
        try {
          if (!macOf.has(s.device_id))
            for (const d of await devices.assigned(s.user_id)) macOf.set(d.id, d.mac);
          const state = await runOne(s, period);
          await repo.finishRun(s.id, period.fromSec, state, null, clock.nowMs());
          if (state === 'DONE') made++;
        } catch (err) {
          log?.error({ err, schedule: s.id }, 'scheduled report not made');
          const message = err instanceof Error ? err.message : String(err);
          await repo.finishRun(s.id, period.fromSec, 'FAILED', message.slice(0, 500), clock.nowMs());
        }
      }
      await repo.purgeFiles(nowMs - REPORT_KEEP_DAYS * 86_400_000);
      return made;
    },

    /** Runs due reports now (catching up after a restart) and then every intervalMs. */
    start(opts: { log?: FastifyBaseLogger; intervalMs?: number } = {}): () => void {
      let running = false;
      const pass = () => {
        if (running) return;
        running = true;
        service
          .runDue(opts.log)
          .catch((err: unknown) => opts.log?.error({ err }, 'report schedule pass failed'))
          .finally(() => {
            running = false;
          });
      };
      pass();
      const timer = setInterval(pass, opts.intervalMs ?? 60_000);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return service;
}
/** PDF reports and their schedules. */
export type ReportsService = ReturnType<typeof reportsService>;

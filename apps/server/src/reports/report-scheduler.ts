// The scheduler: makes each schedule's report of its last whole period once, and delivers it.
import { REPORT_KEEP_DAYS, type MessageLanguage } from '@meterportal/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { UsersRepository } from '../auth/users.repository';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { fromWall, startOfDay, startOfMonth, wallTime } from '../history/calendar';
import { NotFound } from '../http/errors';
import type { Mailer } from '../tools/mailer';
import { asFolderKind, asKind, asLanguage, deviceFileName, folderFileName, folderPath } from './report-files';
import { FOLDER_BODY_KINDS, folderReportModel } from './report-folder';
import type { ReportModels, ReportPeriod } from './report-model';
import { renderReportPdf } from './report-pdf';
import { REPORT_WORDS } from './report-texts';
import type { ReportsRepository, ScheduleRow } from './reports.repository';

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

/** A report made for a schedule: the file, and the e-mail's subject and first lines. */
interface MadeReport {
  bytes: Buffer;
  fileName: string;
  subject: string;
  lines: string[];
}

/** How a run ended: made, or nothing to report (with why, kept with the run). */
type RunEnd = { state: 'DONE'; error: null } | { state: 'GONE'; error: string };
const gone = (error: string): RunEnd => ({ state: 'GONE', error });

/** What the reports service and its scheduler are built from. */
export interface ReportsDeps {
  repo: ReportsRepository;
  models: ReportModels;
  devices: DevicesService;
  users: UsersRepository;
  mailer: Mailer;
  clock: Clock;
  tz: string;
}

/** Makes the reports schedules have due, at start and then every minute. */
export function reportScheduler(deps: ReportsDeps) {
  const { repo, models, devices, users, mailer, clock, tz } = deps;
  /** MAC of device ids the scheduler has seen (filled from the users' device lists). */
  const macOf = new Map<number, string>();

  /** A device schedule's report, or null when the device is no longer the user's. */
  async function deviceReport(
    s: ScheduleRow,
    deviceId: number,
    user: SessionUser,
    period: ReportPeriod,
    language: MessageLanguage,
  ): Promise<MadeReport | null> {
    if (!macOf.has(deviceId)) for (const d of await devices.assigned(s.user_id)) macOf.set(d.id, d.mac);
    const entry = (await devices.deviceList(user.userId)).find((d) => d.mac === macOf.get(deviceId));
    if (!entry) return null;
    const kind = asKind(s.kind);
    const model = await models.build(user, entry.token, kind, period, language);
    const w = REPORT_WORDS[language];
    return {
      bytes: await renderReportPdf(model),
      fileName: deviceFileName(kind, model.device.mac, period, tz),
      subject: `${w.mailSubject}: ${w.titles[kind]} · ${model.device.title}`,
      lines: [w.titles[kind], `${w.device}: ${model.device.title} (${model.device.mac})`],
    };
  }

  /** A folder schedule's report from the user's tree as it is now; null when it has no such folder. */
  async function folderReport(
    s: ScheduleRow,
    stored: string,
    user: SessionUser,
    period: ReportPeriod,
    language: MessageLanguage,
  ): Promise<MadeReport | null> {
    const path = folderPath(stored);
    const kind = asFolderKind(s.kind);
    const model = await folderReportModel({ devices, models }, user, path, kind, period, language).catch(
      (err: unknown) => {
        if (err instanceof NotFound) return null;
        throw err;
      },
    );
    if (!model) return null;
    const w = REPORT_WORDS[language];
    const title = path.join(' / ');
    const heading = w.titles[FOLDER_BODY_KINDS[kind]];
    return {
      bytes: await renderReportPdf(model),
      fileName: folderFileName(kind, path, period, tz),
      subject: `${w.mailSubject}: ${heading} · ${title}`,
      lines: [heading, `${w.folder}: ${title}`],
    };
  }

  /** Makes one schedule's report of a period and delivers it. */
  async function runOne(s: ScheduleRow, period: ReportPeriod): Promise<RunEnd> {
    const user = await users.findById(s.user_id);
    if (!user) return gone('User not found');
    const session: SessionUser = { userId: user.id, login: user.login };
    const language = asLanguage(s.language);
    const made =
      s.folder !== null
        ? await folderReport(s, s.folder, session, period, language)
        : s.device_id !== null
          ? await deviceReport(s, s.device_id, session, period, language)
          : null;
    if (!made) return gone(s.folder !== null ? 'Folder not found' : 'Device not assigned');
    if (s.delivery === 'EMAIL') {
      if (!s.email) return gone('No e-mail address');
      await mailer.send({
        to: s.email,
        subject: made.subject,
        text: `${made.lines.join('\n')}\n\n${REPORT_WORDS[language].mailText}`,
        attachments: [{ filename: made.fileName, content: made.bytes, contentType: 'application/pdf' }],
      });
    } else {
      await repo.insertFile({
        user_id: s.user_id,
        device_id: s.device_id,
        folder: s.folder,
        kind: asKind(s.kind),
        language,
        from_sec: period.fromSec,
        to_sec: period.toSec,
        created_at_ms: clock.nowMs(),
        pdf: made.bytes,
      });
    }
    return { state: 'DONE', error: null };
  }

  const scheduler = {
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
          const end = await runOne(s, period);
          await repo.finishRun(s.id, period.fromSec, end.state, end.error, clock.nowMs());
          if (end.state === 'DONE') made++;
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
        scheduler
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
  return scheduler;
}

// The EN 50160 pages of an analyzer's report, each week's criteria as the compliance page shows
// them, and of a folder's report, each analyzer's weeks criterion by criterion.
import type { PowerQualityWeek, PqCriterionResult } from '@meterportal/protocol';
import type { FolderPowerQualityModel, FolderPqCriterion } from './report-folder-pq';
import type { PowerQualityModel } from './report-model';
import { facts } from './report-pdf-folder';
import type { Formats, Page } from './report-pdf';

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/** The limits of a criterion as the compliance page writes them. */
function limits(c: PqCriterionResult, f: Formats): string {
  if (c.highLimit === null) return '–';
  if (c.lowLimit === null) return `≤ ${f.num(c.highLimit, 2)} ${c.unit}`;
  return `${f.num(c.lowLimit, 2)} – ${f.num(c.highLimit, 2)} ${c.unit}`;
}

const pct = (v: number | null, f: Formats) => (v === null ? '–' : `${f.num(v, 2)} %`);

/** One week: verdict, coverage, the criteria with the span each was counted over, the worst intervals. */
function week(wk: PowerQualityWeek, p: Page) {
  const { w, f, table, heading, note } = p;
  const q = w.pq;
  const range = (fromSec: number, toSec: number) => `${f.date(fromSec * 1000)} – ${f.date(toSec * 1000 - 1)}`;
  heading(`${q.week} ${range(wk.fromSec, wk.toSec)}: ${q.verdict[wk.verdict]}`, wk.criteria.length + 3);
  note(
    `${q.coverage}: ${fill(q.coverageText, {
      pct: `${f.num(wk.coverage.pct, 2)} %`,
      assessed: String(wk.coverage.intervalsAssessed),
      intervals: String(wk.coverage.intervalsInWeek),
    })}. ${fill(q.nominal, { v: f.num(wk.nominalV, 1), f: f.num(wk.nominalHz, 1) })}.`,
  );
  const rows: string[][] = [];
  for (const c of wk.criteria) {
    const measured = c.verdict !== 'NOT_MEASURED';
    const yearly = c.week !== null;
    rows.push([
      q.criteria[c.criterion],
      q.verdict[c.verdict],
      limits(c, f),
      measured ? `${f.num(c.requiredPct, 1)} %` : '–',
      measured ? pct(c.achievedPct, f) : '–',
      measured ? `${yearly ? `${q.yearToDate} ` : ''}${range(c.spanFromSec, c.spanToSec)}` : '–',
    ]);
    if (c.week)
      rows.push([`   ${q.thisWeek}`, '', '', '', pct(c.week.achievedPct, f), range(wk.fromSec, wk.toSec)]);
  }
  table(
    [
      { title: q.criterion, width: 3.1, align: 'left' },
      { title: q.result, width: 1.2, align: 'left' },
      { title: q.limits, width: 1.7 },
      { title: q.required, width: 1.1 },
      { title: q.achieved, width: 1.1 },
      { title: q.span, width: 3.2 },
    ],
    rows,
  );
  const worst = wk.criteria.flatMap((c) =>
    c.worst.map((x) => [
      q.criteria[c.criterion],
      f.dateTime(x.startSec * 1000),
      x.phase ?? '–',
      `${f.num(x.value, c.unit === 'Hz' ? 3 : 2)} ${c.unit}`,
    ]),
  );
  if (worst.length > 0) {
    heading(q.worst);
    table(
      [
        { title: q.criterion, width: 3.3, align: 'left' },
        { title: q.start, width: 2.2 },
        { title: q.phase, width: 0.9 },
        { title: q.value, width: 1.5 },
      ],
      worst,
    );
  }
  harmonics(wk.harmonics, p);
}

/** The week's harmonic orders against the table of the standard, as the compliance page lists them. */
function harmonics(h: PowerQualityWeek['harmonics'], p: Page) {
  const { w, f, table, heading, note } = p;
  const q = w.pq;
  heading(`${q.harmonics}: ${q.verdict[h.verdict]}`, h.orders.length > 0 ? 3 : 1);
  note(
    fill(q.harmonicsCoverage, {
      with: f.num(h.intervalsWithSpectrum, 0),
      intervals: f.num(h.intervalsInWeek, 0),
      pct: `${f.num(h.coveragePct, 2)} %`,
      required: `${f.num(h.requiredPct, 1)} %`,
    }),
  );
  if (h.intervalsWithSpectrum === 0) return note(q.harmonicsNoData);
  table(
    [
      { title: q.order, width: 0.9, align: 'left' },
      { title: q.limit, width: 1.1 },
      { title: q.result, width: 1.3, align: 'left' },
      { title: q.worstPhase, width: 2.2 },
      { title: q.highest, width: 3.6 },
    ],
    h.orders.map((o) => [
      String(o.order),
      `≤ ${f.num(o.limitPct, 1)} %`,
      q.verdict[o.verdict],
      o.achievedPct === null ? '–' : `${pct(o.achievedPct, f)} ${o.worstPhase ?? ''}`.trim(),
      o.worst
        ? `${f.dateTime(o.worst.startSec * 1000)} ${f.num(o.worst.value, 2)} % ${o.worst.phase ?? ''}`.trim()
        : '–',
    ]),
  );
}

/** An analyzer's EN 50160 report: every week ending in the period, then how the values are made. */
export function powerQuality(m: PowerQualityModel, p: Page) {
  const { w, note } = p;
  if (m.weeks.length === 0) return note(w.pq.noWeeks);
  for (const wk of m.weeks) week(wk, p);
  note(w.pq.method);
}

/**
 * A folder's EN 50160 report: the folder's counts and the devices not assessed, the analyzer-weeks
 * failed per criterion, then each analyzer's weeks with each criterion's verdict and share.
 */
export function folderPowerQuality(m: FolderPowerQualityModel, p: Page) {
  const { w, f, table, heading, note } = p;
  const q = w.pq;
  const fq = w.folderPq;
  heading(fq.summary, 6);
  facts(table, [
    [fq.analyzers, String(m.analyzers.length)],
    [fq.notAssessed, String(m.notAssessed.length)],
    [fq.weeksListed, String(m.weeks)],
    [fq.weeksAssessed, String(m.assessed)],
    [fq.weeksPassed, String(m.passed)],
    [fq.weeksFailed, String(m.failed)],
  ]);
  if (m.notAssessed.length > 0)
    note(fill(fq.notAssessedNote, { names: m.notAssessed.map((d) => `${d.title} (${d.mac})`).join(', ') }));
  if (m.analyzers.length === 0) return note(fq.noAnalyzer);
  heading(fq.failedByCriterion, m.failedByCriterion.length);
  table(
    [
      { title: q.criterion, width: 3, align: 'left' },
      { title: fq.failedWeeks, width: 2 },
    ],
    m.failedByCriterion.map((c) => [q.criteria[c.criterion], `${c.failed} / ${m.assessed}`]),
  );
  for (const a of m.analyzers) {
    heading(`${a.title} (${a.mac})`, 11);
    if (a.weeks.length === 0) {
      note(q.noWeeks);
      continue;
    }
    const shown = (v: FolderPqCriterion) =>
      v.verdict === 'PASS' || v.verdict === 'FAIL'
        ? `${q.verdict[v.verdict]} ${pct(v.achievedPct, f)}`
        : q.verdict[v.verdict];
    const criteria = a.weeks[0]!.criteria.map((c) => c.criterion);
    table(
      [
        { title: q.criterion, width: 3.4, align: 'left' },
        ...a.weeks.map((wk) => ({ title: `${q.week} ${f.date(wk.fromSec * 1000)}`, width: 1.4 })),
      ],
      [
        [fq.weekVerdict, ...a.weeks.map((wk) => q.verdict[wk.verdict])],
        ...criteria.map((criterion) => [
          q.criteria[criterion],
          ...a.weeks.map((wk) => {
            const c = wk.criteria.find((x) => x.criterion === criterion);
            return c ? shown(c) : '–';
          }),
        ]),
      ],
    );
  }
  note(q.method);
}

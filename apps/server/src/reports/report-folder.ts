// A folder's report: its devices' energy and cost, maximum demand, availability or power quality,
// listed one by one with the folder's totals.
import {
  DeviceType,
  folderNameKey,
  type FolderReportKind,
  type HierarchyNode,
  type MessageLanguage,
} from '@meterportal/protocol';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { AppError, NotFound } from '../http/errors';
import { folderPowerQuality } from './report-folder-pq';
import type { DevicePeaks, ReportModel, ReportModels, ReportPeriod } from './report-model';

/** One device of a folder's report, with its totals as its own energy and cost report has them. */
export interface FolderDevice {
  title: string;
  mac: string;
  importWh: number;
  exportWh: number;
  /** Null without a tariff. */
  currency: string | null;
  totalCents: number | null;
}

/** A folder's month: each device, the energy totals and the cost per currency. */
export interface FolderEnergyModel {
  kind: 'FOLDER_ENERGY';
  devices: FolderDevice[];
  totalImportWh: number;
  totalExportWh: number;
  /** Cost summed per currency (devices' tariffs may differ), sorted by currency. */
  costs: { currency: string; totalCents: number }[];
  /** Devices without a tariff, whose energy counts but cost does not. */
  withoutTariff: number;
}

/** One device of a folder's max-demand report, as its own max-demand report has it. */
export interface FolderPeakDevice {
  title: string;
  mac: string;
  /** Contract limits, kW (0 when not set). */
  mrkKw: number;
  rkKw: number;
  /** The device's highest quarter hour of the period and its start. */
  peakKw: number | null;
  peakAtMs: number | null;
  /** The 12-month average of monthly peaks of the last month the period touches. */
  avg12Kw: number | null;
  quartersAboveMrk: number;
  quartersAboveRk: number;
}

/** A folder's maximum demand: each device's peak, their sum, and the folder's coincident peak. */
export interface FolderPeaksModel {
  kind: 'FOLDER_PEAKS';
  devices: FolderPeakDevice[];
  /** Each device's own highest quarter hour added up, whenever each fell, kW. */
  sumOfPeaksKw: number;
  /** The highest quarter hour of the devices' demand added up quarter by quarter, and its start. */
  coincidentKw: number | null;
  coincidentAtMs: number | null;
}

/** One device of a folder's availability report, as its own availability report has it. */
export interface FolderAvailabilityDevice {
  title: string;
  mac: string;
  onlineHours: number;
  offlineHours: number;
  /** Online share of the period's known time, 0..1 (null when none is known). */
  share: number | null;
  outages: number;
}

/** A folder's availability: each device's, and the folder's totals. */
export interface FolderAvailabilityModel {
  kind: 'FOLDER_AVAILABILITY';
  devices: FolderAvailabilityDevice[];
  onlineHours: number;
  offlineHours: number;
  outages: number;
  /** Mean of the devices' online shares (devices with no known time left out). */
  meanShare: number | null;
  /** Devices online less than the whole known time. */
  belowFull: number;
}

/** The kind of a folder report's body, by the report kind asked for. */
export const FOLDER_BODY_KINDS = {
  ENERGY_COST: 'FOLDER_ENERGY',
  PEAKS: 'FOLDER_PEAKS',
  AVAILABILITY: 'FOLDER_AVAILABILITY',
  POWER_QUALITY: 'FOLDER_POWER_QUALITY',
} as const satisfies Record<FolderReportKind, string>;

/**
 * The MACs of the devices under the folder at `path` (names compared as the hierarchy compares
 * folder names), or null when there is no such folder. Devices are not folders.
 */
export function devicesInFolder(nodes: readonly HierarchyNode[], path: readonly string[]): string[] | null {
  let level: readonly HierarchyNode[] = nodes;
  let folder: HierarchyNode | undefined;
  for (const name of path) {
    const key = folderNameKey(name);
    folder = level.find((n) => !n.data.mac && folderNameKey(n.title) === key);
    if (!folder) return null;
    level = folder.children ?? [];
  }
  const macs: string[] = [];
  const visit = (list: readonly HierarchyNode[]) => {
    for (const n of list) {
      if (n.data.mac && !macs.includes(n.data.mac)) macs.push(n.data.mac);
      visit(n.children ?? []);
    }
  };
  visit(level);
  return macs;
}

/** The user's own tree, pruned to the devices assigned now; no folders when none is saved. */
export async function userTree(devices: DevicesService, user: SessionUser): Promise<HierarchyNode[]> {
  try {
    return (await devices.readHierarchy(user)).nodes;
  } catch (e) {
    if (e instanceof AppError) return [];
    throw e;
  }
}

/** Refuses a folder the user's tree does not have, as absent (whoever else may have one so named). */
export async function requireFolder(
  devices: DevicesService,
  user: SessionUser,
  path: readonly string[],
): Promise<void> {
  if (!devicesInFolder(await userTree(devices, user), path)) throw new NotFound('Folder not found');
}

/** kW to three decimals, as the charts answer it, so sums do not carry float dust. */
const kw3 = (v: number) => Math.round(v * 1000) / 1000;
const sum = <T>(list: readonly T[], of: (t: T) => number) => list.reduce((a, t) => a + of(t), 0);

/** Each device's report of one kind as a row: the device and what `row` takes from the body. */
function rowsOf<K extends ReportModel['body']['kind'], R>(
  reports: readonly ReportModel[],
  kind: K,
  row: (body: Extract<ReportModel['body'], { kind: K }>) => R,
): ({ title: string; mac: string } & R)[] {
  const isKind = (b: ReportModel['body']): b is Extract<ReportModel['body'], { kind: K }> => b.kind === kind;
  return reports.flatMap((m) =>
    isKind(m.body) ? [{ title: m.device.title, mac: m.device.mac, ...row(m.body) }] : [],
  );
}

/** The folder's energy and cost from each device's energy and cost report. */
function folderEnergy(reports: readonly ReportModel[]): FolderEnergyModel {
  const rows: FolderDevice[] = rowsOf(reports, 'ENERGY_COST', (b) => ({
    importWh: b.totalImportWh,
    exportWh: b.totalExportWh,
    currency: b.total ? b.currency : null,
    totalCents: b.total ? b.total.totalCents : null,
  }));
  const costs = new Map<string, number>();
  for (const r of rows)
    if (r.currency !== null && r.totalCents !== null)
      costs.set(r.currency, (costs.get(r.currency) ?? 0) + r.totalCents);
  return {
    kind: 'FOLDER_ENERGY',
    devices: rows,
    totalImportWh: sum(rows, (r) => r.importWh),
    totalExportWh: sum(rows, (r) => r.exportWh),
    costs: [...costs]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, totalCents]) => ({ currency, totalCents })),
    withoutTariff: rows.filter((r) => r.totalCents === null).length,
  };
}

/**
 * The folder's maximum demand from each device's max-demand report: the devices' peaks summed,
 * and the coincident peak, the highest of the devices' quarter-hour demands added up per quarter.
 */
function folderPeaks(reports: readonly DevicePeaks[]): FolderPeaksModel {
  const devices = reports.map(({ model: { device, body } }) => ({
    title: device.title,
    mac: device.mac,
    mrkKw: body.mrkKw,
    rkKw: body.rkKw,
    peakKw: body.peakKw,
    peakAtMs: body.peakAtMs,
    avg12Kw: body.months.at(-1)?.avg12Kw ?? null,
    quartersAboveMrk: body.quartersAboveMrk,
    quartersAboveRk: body.quartersAboveRk,
  }));
  const summed = new Map<number, number>();
  for (const r of reports) for (const q of r.quarters) summed.set(q.atMs, (summed.get(q.atMs) ?? 0) + q.kw);
  let coincident: [number, number] | null = null;
  for (const [atMs, kw] of summed)
    if (!coincident || kw > coincident[1] || (kw === coincident[1] && atMs < coincident[0]))
      coincident = [atMs, kw];
  return {
    kind: 'FOLDER_PEAKS',
    devices,
    sumOfPeaksKw: kw3(sum(devices, (d) => d.peakKw ?? 0)),
    coincidentKw: coincident && kw3(coincident[1]),
    coincidentAtMs: coincident && coincident[0],
  };
}

/** The folder's availability from each device's availability report. */
function folderAvailability(reports: readonly ReportModel[]): FolderAvailabilityModel {
  const devices: FolderAvailabilityDevice[] = rowsOf(reports, 'AVAILABILITY', (b) => ({
    onlineHours: b.onlineHours,
    offlineHours: b.offlineHours,
    share: b.share,
    outages: b.outages,
  }));
  const shares = devices.flatMap((d) => (d.share === null ? [] : [d.share]));
  return {
    kind: 'FOLDER_AVAILABILITY',
    devices,
    onlineHours: sum(devices, (d) => d.onlineHours),
    offlineHours: sum(devices, (d) => d.offlineHours),
    outages: sum(devices, (d) => d.outages),
    meanShare: shares.length > 0 ? sum(shares, (v) => v) / shares.length : null,
    belowFull: shares.filter((v) => v < 1).length,
  };
}

/**
 * Builds a folder's report from the user's own hierarchy, pruned to the devices assigned now:
 * a folder the user does not have answers like a missing one. Each device's numbers are those
 * of its own report of the same kind.
 */
export async function folderReportModel(
  deps: { devices: DevicesService; models: ReportModels },
  user: SessionUser,
  path: readonly string[],
  kind: FolderReportKind,
  period: ReportPeriod,
  language: MessageLanguage,
): Promise<ReportModel> {
  const { models } = deps;
  const macs = devicesInFolder(await userTree(deps.devices, user), path);
  if (!macs) throw new NotFound('Folder not found');
  const list = await deps.devices.deviceList(user.userId);
  const entries = macs.flatMap((mac) => list.filter((d) => d.mac === mac).slice(0, 1));
  const tokens = entries.map((e) => e.token);
  const title = path.join(' / ');
  const framed = (first: ReportModel | undefined, body: ReportModel['body']): ReportModel => ({
    device: { title, mac: '' },
    folder: title,
    language,
    tz: first?.tz ?? models.tz,
    period,
    createdMs: first?.createdMs ?? models.nowMs(),
    body,
  });
  if (kind === 'PEAKS') {
    const reports: DevicePeaks[] = [];
    for (const token of tokens) reports.push(await models.devicePeaks(user, token, period, language));
    return framed(reports[0]?.model, folderPeaks(reports));
  }
  if (kind === 'POWER_QUALITY') {
    // Only analyzers are assessed; the folder's other devices are named as not assessed.
    const analyzers = entries.filter((e) => e.type === DeviceType.Precision);
    const reports: ReportModel[] = [];
    for (const e of analyzers) reports.push(await models.build(user, e.token, kind, period, language));
    const rows = rowsOf(reports, 'POWER_QUALITY', (body) => ({ body }));
    const others = entries.filter((e) => e.type !== DeviceType.Precision);
    const notAssessed = others.map((e) => ({ title: e.title || e.mac, mac: e.mac }));
    return framed(reports[0], folderPowerQuality(rows, notAssessed));
  }
  const reports: ReportModel[] = [];
  for (const token of tokens) reports.push(await models.build(user, token, kind, period, language));
  return framed(reports[0], kind === 'ENERGY_COST' ? folderEnergy(reports) : folderAvailability(reports));
}

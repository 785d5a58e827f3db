// A folder's report: the energy and cost of its devices, summed and listed one by one.
import { folderNameKey, type HierarchyNode, type MessageLanguage } from '@meterportal/protocol';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { AppError, NotFound } from '../http/errors';
import type { ReportModel, ReportModels, ReportPeriod } from './report-model';

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

/**
 * Builds a folder's report from the user's own hierarchy, pruned to the devices assigned now:
 * a folder the user does not have answers like a missing one. Each device's numbers are those
 * of its own energy and cost report.
 */
export async function folderReportModel(
  deps: { devices: DevicesService; models: ReportModels },
  user: SessionUser,
  path: readonly string[],
  period: ReportPeriod,
  language: MessageLanguage,
): Promise<ReportModel> {
  const macs = devicesInFolder(await userTree(deps.devices, user), path);
  if (!macs) throw new NotFound('Folder not found');
  const list = await deps.devices.deviceList(user.userId);
  const rows: FolderDevice[] = [];
  let base: ReportModel | null = null;
  for (const mac of macs) {
    const entry = list.find((d) => d.mac === mac);
    if (!entry) continue;
    const m = await deps.models.build(user, entry.token, 'ENERGY_COST', period, language);
    base ??= m;
    if (m.body.kind !== 'ENERGY_COST') continue;
    rows.push({
      title: m.device.title,
      mac,
      importWh: m.body.totalImportWh,
      exportWh: m.body.totalExportWh,
      currency: m.body.total ? m.body.currency : null,
      totalCents: m.body.total ? m.body.total.totalCents : null,
    });
  }
  const costs = new Map<string, number>();
  for (const r of rows)
    if (r.currency !== null && r.totalCents !== null)
      costs.set(r.currency, (costs.get(r.currency) ?? 0) + r.totalCents);
  const title = path.join(' / ');
  return {
    device: { title, mac: '' },
    folder: title,
    language,
    tz: base?.tz ?? deps.models.tz,
    period,
    createdMs: base?.createdMs ?? deps.models.nowMs(),
    body: {
      kind: 'FOLDER_ENERGY',
      devices: rows,
      totalImportWh: rows.reduce((a, r) => a + r.importWh, 0),
      totalExportWh: rows.reduce((a, r) => a + r.exportWh, 0),
      costs: [...costs]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, totalCents]) => ({ currency, totalCents })),
      withoutTariff: rows.filter((r) => r.totalCents === null).length,
    },
  };
}

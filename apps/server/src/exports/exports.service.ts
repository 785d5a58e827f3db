import {
  EXPORT_MAX_VALUES,
  phasesInUse,
  profileResolution,
  serialFromMac,
  type ExportRequest,
  type ProfileQuantity,
} from '@meterportal/protocol';
import type { AssignedDevice } from '../devices/devices.repository';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import type { HistoryService } from '../history/history.service';
import { DataNotFound, InvalidRequest } from '../http/errors';
import { csvText, energyTable, profileTable, type SeriesTable } from '../integration/integration-fns';
import { costPeriodStarts } from '../tariffs/tariffs-fns';
import type { TariffsService } from '../tariffs/tariffs.service';
import {
  besideTable,
  costTable,
  exportFileName,
  joinTables,
  monthsIntoYears,
  xlsxSheets,
  type DevicePart,
  type ExportAbout,
} from './exports-fns';
import { xlsxWorkbook } from './xlsx';

/** A written export: its bytes, their content type and the file's name. */
export interface ExportFile {
  fileName: string;
  contentType: string;
  bytes: string | Uint8Array;
}

/** Seconds a row of each resolution or period spans at least, for the size estimate. */
const ROW_SEC: Record<string, number> = {
  MINUTE: 60,
  '15MIN': 900,
  HOUR: 3600,
  DAY: 82800,
  MONTH: 28 * 86400,
  YEAR: 365 * 86400,
};
/** Cost columns besides one per band: energy, fixed, capacity, VAT, export credit, total. */
const COST_COLUMNS = 6;

const isDataNotFound = (e: unknown) => e instanceof DataNotFound;

/**
 * Profiles and energy totals (with their cost) of one or more devices over a whole range, as
 * CSV or XLSX: the same reads as the charts, so a file's values are the charts' values.
 */
export function exportsService(deps: {
  devices: DevicesService;
  history: HistoryService;
  tariffs: TariffsService;
  tz: string;
}) {
  const { devices, history, tariffs, tz } = deps;

  /** Value columns a device adds: per phase and total, or per energy kind and its cost. */
  async function columnsOf(user: SessionUser, req: ExportRequest, token: string, d: AssignedDevice) {
    if (req.series === 'PROFILE') {
      const phases = phasesInUse(d.type, d.phase_use);
      return req.data.reduce((n, q) => n + (q === 'F' ? 1 : phases + 1), 0);
    }
    if (req.period === '15MIN') return req.data.length;
    const { tariffs: versions } = await tariffs.read(user, token);
    const bands = new Set(versions.flatMap((v) => v.bands.map((b) => b.name)));
    return req.data.length + (versions.length > 0 ? bands.size + COST_COLUMNS : 0);
  }

  async function profilePart(user: SessionUser, token: string, data: ProfileQuantity[], req: ExportRequest) {
    const { data: columns } = await history.profile(user, {
      token,
      data,
      phase: 'L1,L2,L3',
      from: req.from,
      to: req.to,
      format: 'H',
      cumulative: true,
    });
    return profileTable(data, columns);
  }

  async function energyPart(
    user: SessionUser,
    token: string,
    req: Extract<ExportRequest, { series: 'ENERGY' }>,
  ): Promise<{ table: SeriesTable; currency?: string }> {
    const yearly = req.period === 'YEAR';
    const data = await history.energy(user, {
      token,
      data: req.data,
      phase: 'CUM',
      from: req.from,
      to: req.to,
      period: req.period === 'YEAR' ? 'MONTH' : req.period,
      format: 'H',
      maximum: false,
    });
    if (yearly) {
      const years = costPeriodStarts(req.from, req.to, 'YEAR', tz);
      for (const kind of Object.keys(data)) data[kind] = { CUM: monthsIntoYears(data[kind]!.CUM, years) };
    }
    const energy = energyTable(data);
    if (req.period === '15MIN') return { table: energy };
    // Cost beside the energy where the device has a tariff; without one the file has energy only.
    const cost = await tariffs
      .cost(user, { token, from: req.from, to: req.to, period: req.period })
      .catch((e: unknown) => {
        if (isDataNotFound(e)) return null;
        throw e;
      });
    return cost
      ? { table: besideTable(energy, costTable(cost)), currency: cost.currency }
      : { table: energy };
  }

  return {
    async export(user: SessionUser, req: ExportRequest): Promise<ExportFile> {
      // Every device first: one that is not the user's answers as missing before anything is read.
      const found: AssignedDevice[] = [];
      for (const token of req.devices) found.push(await devices.resolve(user, token));

      const step = req.series === 'PROFILE' ? profileResolution(req.to - req.from) : req.period;
      const rows = Math.ceil((req.to - req.from) / ROW_SEC[step]!) + 1;
      let values = 0;
      for (const [i, d] of found.entries()) values += rows * (await columnsOf(user, req, req.devices[i]!, d));
      if (values > EXPORT_MAX_VALUES)
        throw new InvalidRequest(
          `Invalid request at to: the export would hold about ${values} values, at most ${EXPORT_MAX_VALUES}; choose fewer devices or quantities, a shorter range or a longer period`,
        );

      const parts: DevicePart[] = [];
      let currency: string | undefined;
      for (const [i, d] of found.entries()) {
        const token = req.devices[i]!;
        const base = { serial: serialFromMac(d.mac), title: d.title };
        try {
          if (req.series === 'PROFILE') {
            parts.push({ ...base, table: await profilePart(user, token, req.data, req) });
          } else {
            const part = await energyPart(user, token, req);
            currency ??= part.currency;
            parts.push({ ...base, table: part.table });
          }
        } catch (e) {
          // A device without data in the range adds no columns; the others are still exported.
          if (!isDataNotFound(e)) throw e;
          parts.push({ ...base, table: { columns: [], rows: [] } });
        }
      }
      const table = joinTables(parts, parts.length > 1);
      if (table.rows.length === 0) throw new DataNotFound();

      const about: ExportAbout = {
        tz,
        series: req.series,
        step,
        fromSec: req.from,
        toSec: req.to,
        devices: parts.map((p) => ({ serial: p.serial, title: p.title })),
        ...(currency ? { currency } : {}),
      };
      if (req.format === 'CSV')
        return {
          fileName: exportFileName(about, 'csv'),
          contentType: 'text/csv; charset=utf-8',
          bytes: csvText(table, tz),
        };
      return {
        fileName: exportFileName(about, 'xlsx'),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes: xlsxWorkbook(xlsxSheets(table, about)),
      };
    },
  };
}
/** Series exports as files. */
export type ExportsService = ReturnType<typeof exportsService>;

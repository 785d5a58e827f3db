import {
  METER_ENUM_FIELDS,
  METER_TEXT_FIELDS,
  MeterInput,
  type MeterInputIn,
  type MeterRow,
} from '@meterportal/protocol';
import Fuse from 'fuse.js';

/** Seed 001 sections 5 and 9: page sizes, default page size, fuzzy search. */
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 5;
export const SEARCH_THRESHOLD = 0.3;
export const SEARCH_MIN_MATCH = 2;
/** Columns the search looks in. */
export const SEARCH_KEYS = ['SNUM', 'IDN', 'TYPE', 'PRODUCER', ...METER_TEXT_FIELDS] as const;

/** What an empty value looks like in the table. */
export const EMPTY_CELL = '-';

/** Editable fields of a meter (everything MeterInput validates). */
export type MeterField = keyof MeterInputIn;
export const METER_FIELDS = Object.keys(MeterInput.shape) as MeterField[];

/** Enumerated fields, edited with a select and stored as the index. */
export type EnumField = keyof typeof METER_ENUM_FIELDS;
export function isEnumField(field: string): field is EnumField {
  return field in METER_ENUM_FIELDS;
}

/** Text of a stored scalar; anything else (absent, an object) is empty. */
export function scalarText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
}

/** The table's text for a value: '-' when empty. */
export function toCell(value: unknown): string {
  const s = scalarText(value).trim();
  return s === '' ? EMPTY_CELL : s;
}

/** What a cell sends back: '-' (or nothing) is empty. */
export function fromCell(text: string): string {
  const s = text.trim();
  return s === EMPTY_CELL ? '' : s;
}

/** The editable fields of a stored row, as PUT wants the whole meter. */
export function rowToInput(row: MeterRow): MeterInputIn {
  const out: Record<string, unknown> = {};
  for (const f of METER_FIELDS) {
    const v = (row as Record<string, unknown>)[f];
    out[f] = isEnumField(f) ? Number(v ?? 0) : typeof v === 'string' ? fromCell(v) : (v ?? '');
  }
  return out as MeterInputIn;
}

/** The whole meter after one cell was edited, or the field's problem when the value breaks a rule. */
export function editedMeter(
  row: MeterRow,
  field: MeterField,
  value: string | number,
): { ok: true; meter: MeterInputIn } | { ok: false } {
  const next = { ...rowToInput(row), [field]: typeof value === 'number' ? value : fromCell(value) };
  const check = MeterInput.shape[field].safeParse(next[field]);
  return check.success ? { ok: true, meter: next } : { ok: false };
}

/** Newest change first (seed 001 section 9: time descending). */
export function sortByTime<T extends { MTIME: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.MTIME - a.MTIME);
}

/** Fuzzy search over several columns; a query shorter than two characters keeps every row. */
export function searchMeters<T extends MeterRow>(rows: readonly T[], query: string): T[] {
  const q = query.trim();
  if (q.length < SEARCH_MIN_MATCH) return [...rows];
  return new Fuse(rows, {
    keys: [...SEARCH_KEYS],
    threshold: SEARCH_THRESHOLD,
    minMatchCharLength: SEARCH_MIN_MATCH,
  })
    .search(q)
    .map((r) => r.item);
}

/** Loading from and sending to the device need it online over BT_MQTT (seed 001 section 4). */
export function canUseDeviceDatabase(runtime: { status?: string; connection?: string } | undefined): boolean {
  return runtime?.status === 'ONLINE' && runtime.connection === 'BT_MQTT';
}

/** The device reports DATABASE_UPDATE while its meter database is being rewritten. */
export function isDeviceDatabaseBusy(runtime: { status?: string } | undefined): boolean {
  return runtime?.status === 'DATABASE_UPDATE';
}

import { z } from 'zod';
import { DeviceTokenString } from './common';
import { ENERGY_KINDS, HISTORY_MAX_SPAN_SEC, PROFILE_QUANTITIES } from './history';

/** File formats of a series export. */
export const EXPORT_FORMATS = ['CSV', 'XLSX'] as const;
/** A file format of a series export. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Periods of an energy export: the energy chart's periods and the cost's years. */
export const EXPORT_ENERGY_PERIODS = ['15MIN', 'HOUR', 'DAY', 'MONTH', 'YEAR'] as const;
/** A period of an energy export. */
export type ExportEnergyPeriod = (typeof EXPORT_ENERGY_PERIODS)[number];
/** Most devices one export may hold. */
export const EXPORT_MAX_DEVICES = 20;
/** Most values (rows x value columns, over every device) one export may hold. */
export const EXPORT_MAX_VALUES = 500_000;

/** A comma list or an array of names, each from the allowed set, without repeats. */
function names<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z
    .union([z.string().max(200), z.array(z.string().max(20)).max(20)])
    .transform((v) => [
      ...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean)),
    ])
    .pipe(z.array(z.enum(allowed)).min(1));
}

const common = {
  /** Device tokens of the devices to export, as the device list answers them. */
  devices: z.array(DeviceTokenString).min(1).max(EXPORT_MAX_DEVICES),
  /** Range start, unix seconds. */
  from: z.number().int().min(0),
  /** Range end (exclusive), unix seconds. */
  to: z.number().int().min(0),
  format: z.enum(EXPORT_FORMATS),
};

/** Body of POST (read) /exports: a chart's full range of one or more devices as a file. */
export const ExportRequest = z
  .discriminatedUnion('series', [
    z.object({
      /** Profiles: per phase and, where phases add up, their total; at the chart's resolution. */
      series: z.literal('PROFILE'),
      data: names(PROFILE_QUANTITIES),
      ...common,
    }),
    z.object({
      /** Energy totals as interval values, with their cost where the device has a tariff. */
      series: z.literal('ENERGY'),
      data: names(ENERGY_KINDS),
      period: z.enum(EXPORT_ENERGY_PERIODS),
      ...common,
    }),
  ])
  .refine((r) => r.to > r.from && r.to - r.from <= HISTORY_MAX_SPAN_SEC, {
    message: 'to must be after from, at most 367 days later',
    path: ['to'],
  })
  .refine((r) => new Set(r.devices).size === r.devices.length, {
    message: 'a device may be named once',
    path: ['devices'],
  });
/** Body of POST (read) /exports. */
export type ExportRequest = z.infer<typeof ExportRequest>;
/** Body of POST (read) /exports as a caller sends it (lists as arrays or comma text). */
export type ExportRequestInput = z.input<typeof ExportRequest>;

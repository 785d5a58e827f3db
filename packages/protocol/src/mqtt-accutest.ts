import { z } from 'zod';
import { MeterTestResult } from './meters';
import { QUANTITY_BOUNDS, addBoundIssue, bounded, type BoundedQuantity } from './mqtt-messages';

/**
 * Bounds of an accuracy test result as a device sends it. A value beyond them (1e308, a negative
 * sample count, a meter error of a million percent) comes from a faulty or hostile analyzer and
 * refuses the whole result at decode (reason out_of_range), as the live frame's bounds do.
 */
export const ACCUTEST_BOUNDS = {
  /** Meter error, %: a meter that registers nothing is -100 %; beyond ±1000 % is no measurement. */
  errorPct: { min: -1000, max: 1000 },
  /** Standard deviation of the error, %. */
  stdevPct: { min: 0, max: 1000 },
  /** Samples the error is averaged over. */
  samples: { min: 0, max: 1e9 },
  /** Integration time or a demand period, s (up to a year). */
  durationSec: { min: 0, max: 366 * 86400 },
  /** An index into one of the device's lists (energy type, pulse input, connection). */
  index: { min: 0, max: 255 },
  /** Meter constant, impulses per kWh (or kvarh). */
  meterConstant: { min: 0, max: 1e9 },
  /** Sub-periods of a demand period. */
  subPeriods: { min: 0, max: 1e4 },
  /** A time, unix seconds (up to the year 5000). */
  unixSec: { min: 0, max: 95_617_584_000 },
} as const;

const within = (b: { min: number; max: number }) => z.number().finite().min(b.min).max(b.max);
const wholeWithin = (b: { min: number; max: number }) => within(b).int();
const phased = <P extends string>(prefix: P, quantity: BoundedQuantity | z.ZodNumber) => {
  const schema = (typeof quantity === 'string' ? bounded(quantity) : quantity).optional();
  return { [`${prefix}1`]: schema, [`${prefix}2`]: schema, [`${prefix}3`]: schema } as Record<
    `${P}${1 | 2 | 3}`,
    typeof schema
  >;
};
const nonNegative = (q: BoundedQuantity) => bounded(q).min(Math.max(0, QUANTITY_BOUNDS[q].min));

/**
 * A key the schema does not name may be sent by newer firmware and is kept as sent; a number in
 * it is held to the widest bounds, so that no absurd value is stored under any key.
 */
const extraValue = z.unknown().superRefine((v, ctx) => {
  if (typeof v === 'number') addBoundIssue(ctx, v, QUANTITY_BOUNDS.other.min, QUANTITY_BOUNDS.other.max);
});

/** One accuracy test result on `accutest/data`: the meter test result of seed 001 within physical bounds. */
export const AccuTestDataMessage = MeterTestResult.extend({
  MTIME: wholeWithin(ACCUTEST_BOUNDS.unixSec),
  ERROR: within(ACCUTEST_BOUNDS.errorPct),
  METERSTDEV: within(ACCUTEST_BOUNDS.stdevPct).optional(),
  TESTSAMPLES: wholeWithin(ACCUTEST_BOUNDS.samples).optional(),
  INTTIME: within(ACCUTEST_BOUNDS.durationSec).optional(),
  MENERGYTYPE: wholeWithin(ACCUTEST_BOUNDS.index).optional(),
  ELM_OUTPUT_TYPE: wholeWithin(ACCUTEST_BOUNDS.index).optional(),
  METERCONST: within(ACCUTEST_BOUNDS.meterConstant).optional(),
  CONTYPE: wholeWithin(ACCUTEST_BOUNDS.index).optional(),
  ...phased('MCHNLA', 'voltageV'),
  ...phased('MCHNLB', 'currentA'),
  ...phased('MPOWFACT', 'powerFactor'),
  ...phased('MPHA', 'angleDeg'),
  ...phased('MPHB', 'angleDeg'),
  ...phased('DFA', 'thdPct'),
  ...phased('DFB', 'thdPct'),
  ...phased('UPP', 'voltageV'),
  ...phased('PH', 'angleDeg'),
  MFREQ: bounded('frequencyHz').optional(),
  ...phased('MPOWER', 'powerW'),
  MPOWERSUM: bounded('powerW').optional(),
  ...phased('MQPOWER', 'powerW'),
  MQPOWERSUM: bounded('powerW').optional(),
  ...phased('MSPOWER', 'apparentVA'),
  MSPOWERSUM: bounded('apparentVA').optional(),
  ...phased('MENERGY', 'energyWh'),
  MENERGYSUM: bounded('energyWh').optional(),
  ...phased('MQENERGY', 'energyWh'),
  MQENERGYSUM: bounded('energyWh').optional(),
  ...phased('MSENERGY', nonNegative('energyWh')),
  MSENERGYSUM: nonNegative('energyWh').optional(),
  MDPERIOD: within(ACCUTEST_BOUNDS.durationSec).optional(),
  MDSUBPERIODS: wholeWithin(ACCUTEST_BOUNDS.subPeriods).optional(),
  MDLASTRESET: within(ACCUTEST_BOUNDS.unixSec).optional(),
  MDFIXP: bounded('powerW').optional(),
  MDFIXQ: bounded('powerW').optional(),
  MDFIXS: bounded('apparentVA').optional(),
  MDSLIDP: bounded('powerW').optional(),
  MDSLIDQ: bounded('powerW').optional(),
  MDSLIDS: bounded('apparentVA').optional(),
}).catchall(extraValue);
/** One accuracy test result. */
export type AccuTestDataMessage = z.infer<typeof AccuTestDataMessage>;

import type { HarmonicsResult, WaveformResult } from '@meterportal/protocol';
import type { Point } from '../../charts/series';

/** The six series of the area's charts; also the keys of the remembered legend (ap_charts). */
export const SERIES_KEYS = ['L1_U', 'L1_I', 'L2_U', 'L2_I', 'L3_U', 'L3_I'] as const;
export type SeriesKey = (typeof SERIES_KEYS)[number];

export function seriesParts(key: SeriesKey): { phase: 'L1' | 'L2' | 'L3'; kind: 'U' | 'I' } {
  const [phase, kind] = key.split('_') as ['L1' | 'L2' | 'L3', 'U' | 'I'];
  return { phase, kind };
}

/** One colour per phase, as on the other charts; voltage and current of a phase differ in shade. */
export const SERIES_COLORS: Record<SeriesKey, string> = {
  L1_U: '#d4a106',
  L1_I: '#fa8c16',
  L2_U: '#cf1322',
  L2_I: '#f759ab',
  L3_U: '#389e0d',
  L3_I: '#13c2c2',
};

export interface KeyedSeries {
  key: SeriesKey;
  points: Point[];
}

/** Harmonic amplitudes as [order, %] points; values[0] is order 1 (the fundamental). */
export function harmonicsSeries(result: HarmonicsResult): KeyedSeries[] {
  return SERIES_KEYS.map((key) => {
    const { phase, kind } = seriesParts(key);
    return { key, points: result[kind][phase].values.map((v, i): Point => [i + 1, v]) };
  });
}

/** Highest harmonic order over all series (the x categories run from 1 to it). */
export function harmonicOrders(series: readonly KeyedSeries[]): number {
  return Math.max(0, ...series.map((s) => s.points.length));
}

/** Waveform samples as [ms, value] points: sample n lies at n / sampleRateHz seconds. */
export function waveformSeries(result: WaveformResult): KeyedSeries[] {
  const msPerSample = 1000 / result.sampleRateHz;
  return SERIES_KEYS.map((key) => {
    const { phase, kind } = seriesParts(key);
    return { key, points: result[kind][phase].values.map((v, i): Point => [i * msPerSample, v]) };
  });
}

/**
 * Total harmonic distortion in % of the fundamental: the root of the summed squares of orders
 * 2..N over order 1. Null without a fundamental.
 */
export function thdPercent(points: readonly Point[]): number | null {
  const fundamental = points.find(([o]) => o === 1)?.[1];
  if (!fundamental) return null;
  const sq = points.filter(([o]) => o >= 2).reduce((a, [, v]) => a + v * v, 0);
  return (Math.sqrt(sq) / Math.abs(fundamental)) * 100;
}

import { framePayload } from './dashboardRows';
import { SERIES_KEYS, seriesParts, type SeriesKey } from './series';

/** Radial range of the vector diagram (seed 001 section 9): logarithmic from 0.1 to 300. */
export const RADIUS_MIN = 0.1;
export const RADIUS_MAX = 300;

/** One arrow of the diagram: a phase voltage (V) or current (A) with its angle. */
export interface Phasor {
  key: SeriesKey;
  magnitude: number;
  /** Degrees, 0 to 360. */
  angleDeg: number;
}

/** Zero positions of the settings (seed 001 section 3). */
export const ZERO_POSITIONS = [0, 90, 180, 270] as const;
export type ZeroPosition = (typeof ZERO_POSITIONS)[number];

export function normalizeAngle(deg: number): number {
  const a = deg % 360;
  return a < 0 ? a + 360 : a === 0 ? 0 : a;
}

/**
 * The six phasors of a live Data message: U and I magnitudes with the F_U and F_I angles of each
 * phase. Null when any of these is missing, so the caller keeps the last good picture.
 */
export function readPhasors(message: unknown): Phasor[] | null {
  const data = framePayload(message);
  if (!data) return null;
  const out: Phasor[] = [];
  for (const key of SERIES_KEYS) {
    const { phase, kind } = seriesParts(key);
    const mag = (data[kind] as Record<string, unknown> | undefined)?.[phase];
    const ang = (data[kind === 'U' ? 'F_U' : 'F_I'] as Record<string, unknown> | undefined)?.[phase];
    if (typeof mag !== 'number' || !Number.isFinite(mag)) return null;
    if (typeof ang !== 'number' || !Number.isFinite(ang)) return null;
    out.push({ key, magnitude: mag, angleDeg: normalizeAngle(ang) });
  }
  return out;
}

/** Where a magnitude is drawn on the logarithmic radius: inside 0.1 to 300. */
export function drawnRadius(magnitude: number): number {
  return Math.min(RADIUS_MAX, Math.max(RADIUS_MIN, Math.abs(magnitude)));
}

/**
 * ECharts angle axis for the settings. The zero position is measured clockwise from the top (0 at
 * 12 o'clock, 90 at 3 o'clock), as the seed's pane start angle; ECharts measures its start angle
 * counter-clockwise from 3 o'clock.
 */
export function angleAxisFor(
  zeroPosition: ZeroPosition,
  clockwise: boolean,
): { startAngle: number; clockwise: boolean } {
  return { startAngle: normalizeAngle(90 - zeroPosition), clockwise };
}

/**
 * Rotation of an arrow head (ECharts' 'arrow' points up; rotation is counter-clockwise) so that it
 * points along the phasor drawn at `angleDeg`.
 */
export function arrowRotation(angleDeg: number, axis: { startAngle: number; clockwise: boolean }): number {
  const screen = axis.startAngle + (axis.clockwise ? -angleDeg : angleDeg);
  return normalizeAngle(screen - 90);
}

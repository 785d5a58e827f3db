/**
 * Chart permission levels (seed 001 section 6). The levels are fixed in the client: 2 on the
 * harmonics and waveform charts, 4 on the vector diagram.
 */
export const CHART_PERMISSION_LEVEL = 2;
export const VECTOR_PERMISSION_LEVEL = 4;

/** What a chart offers at a level: the legend from 1, horizontal zoom from 2. */
export function chartFeatures(level: number): { legend: boolean; zoom: boolean } {
  return { legend: level >= 1, zoom: level >= 2 };
}

/** What the vector diagram offers at a level. */
export interface VectorFeatures {
  legend: boolean;
  /** The settings drop-down is shown. */
  settings: boolean;
  /** Rotation direction can be changed. */
  direction: boolean;
  /** Zero position can be changed. */
  zeroPosition: boolean;
}

export function vectorFeatures(level: number): VectorFeatures {
  return { legend: level >= 1, settings: level >= 3, direction: level >= 3, zeroPosition: level >= 4 };
}

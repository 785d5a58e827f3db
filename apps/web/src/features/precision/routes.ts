/**
 * Paths of the applied-precision area (seed 001 section 2), kept apart from the area's chunk so
 * that the sidebar and the route titles do not load it. The area's one route table
 * (PrecisionArea.tsx) maps every path listed here to its screen.
 */
export const PRECISION_ROUTE = '/applied-precision';

/**
 * Screens of the area: path under /applied-precision, the key of its title, and whether the
 * sidebar lists it (screens reached from another one, such as a wizard, set `menu: false`).
 */
export const PRECISION_SCREENS = [
  { path: 'dashboard', title: 'menu.precision_dashboard', menu: true },
  { path: 'vector', title: 'menu.vector_diagram', menu: true },
  { path: 'harmonics', title: 'menu.harmonics', menu: true },
  { path: 'waveform', title: 'menu.waveform', menu: true },
  { path: 'power-quality', title: 'menu.power_quality', menu: true },
  { path: 'meters', title: 'menu.meters', menu: true },
  { path: 'meter/add', title: 'menu.meter_add', menu: false },
  { path: 'meter/tests/:meter_id', title: 'menu.meter_tests', menu: false },
] as const;

/** A screen of the area. */
export type PrecisionScreen = (typeof PRECISION_SCREENS)[number];
export type PrecisionPath = PrecisionScreen['path'];
export type PrecisionTitle = PrecisionScreen['title'];

export function precisionUrl(path: PrecisionPath): string {
  return `${PRECISION_ROUTE}/${path}`;
}

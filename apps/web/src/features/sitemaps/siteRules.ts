import { SITE_MAP_MAX_BYTES } from '@meterportal/protocol';

export { SITE_MAPS_ROUTE, SITES_ROUTE } from './routes';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Why a plan image is refused before it is sent, or null when it may go. */
export type PlanFileProblem = 'too_large' | 'format' | null;

/**
 * Checks a chosen plan like the server does: at most 1 MB, and a PNG or JPEG by its first bytes
 * whatever the file's name says.
 */
export function planFileProblem(sizeBytes: number, head: Uint8Array): PlanFileProblem {
  if (sizeBytes > SITE_MAP_MAX_BYTES) return 'too_large';
  const png = head.length >= PNG.length && PNG.every((b, i) => head[i] === b);
  const jpeg = head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  return png || jpeg ? null : 'format';
}

/** A point's place across a box as fractions of its width and height; null outside the box. */
export function fractionIn(
  box: { left: number; top: number; width: number; height: number },
  clientX: number,
  clientY: number,
): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0) return null;
  const x = (clientX - box.left) / box.width;
  const y = (clientY - box.top) / box.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  // Four decimals place a pin within a pixel on any plan a screen shows.
  return { x: Math.round(x * 10_000) / 10_000, y: Math.round(y * 10_000) / 10_000 };
}

/** Metres per degree of latitude (and of longitude at the equator). */
const M_PER_DEG = 111_320;

/** A located device drawn on the sites plot. */
export interface SitePoint {
  lat: number;
  lng: number;
}

/** Where located devices land on the sites plot, and the way between plot pixels and degrees. */
export interface Projection {
  xy: { x: number; y: number }[];
  metresPerPx: number;
  toXY: (lat: number, lng: number) => { x: number; y: number };
  toLatLng: (x: number, y: number) => { lat: number; lng: number };
}

/**
 * Places points in a width × height box with an equirectangular projection around their mean
 * latitude (good enough across a town or a region), scaled to their bounding box with a margin.
 * Answers each point's pixel position and how many metres one pixel spans.
 */
export function projectSites(
  points: readonly SitePoint[],
  width: number,
  height: number,
  margin: number,
): Projection {
  if (points.length === 0)
    return { xy: [], metresPerPx: 1, toXY: () => ({ x: 0, y: 0 }), toLatLng: () => ({ lat: 0, lng: 0 }) };
  const meanLat = points.reduce((s, p) => s + p.lat, 0) / points.length;
  const k = Math.cos((meanLat * Math.PI) / 180);
  // Metres east and north of the first point.
  const m = points.map((p) => ({
    e: (p.lng - points[0]!.lng) * M_PER_DEG * k,
    n: (p.lat - points[0]!.lat) * M_PER_DEG,
  }));
  const minE = Math.min(...m.map((p) => p.e));
  const maxE = Math.max(...m.map((p) => p.e));
  const minN = Math.min(...m.map((p) => p.n));
  const maxN = Math.max(...m.map((p) => p.n));
  // A single site (or sites on one spot) is shown with 1 km around it.
  const spanE = Math.max(maxE - minE, 1000);
  const spanN = Math.max(maxN - minN, 1000);
  const innerW = Math.max(width - 2 * margin, 1);
  const innerH = Math.max(height - 2 * margin, 1);
  const metresPerPx = Math.max(spanE / innerW, spanN / innerH);
  const cx = (minE + maxE) / 2;
  const cy = (minN + maxN) / 2;
  const lat0 = points[0]!.lat;
  const lng0 = points[0]!.lng;
  return {
    xy: m.map((p) => ({ x: width / 2 + (p.e - cx) / metresPerPx, y: height / 2 - (p.n - cy) / metresPerPx })),
    metresPerPx,
    toXY: (lat, lng) => ({
      x: width / 2 + ((lng - lng0) * M_PER_DEG * k - cx) / metresPerPx,
      y: height / 2 - ((lat - lat0) * M_PER_DEG - cy) / metresPerPx,
    }),
    toLatLng: (x, y) => ({
      lat: lat0 + (cy - (y - height / 2) * metresPerPx) / M_PER_DEG,
      lng: lng0 + (cx + (x - width / 2) * metresPerPx) / (M_PER_DEG * k),
    }),
  };
}

/** One map tile placed on the sites plot. */
export interface PlacedTile {
  href: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const tileX = (lng: number, n: number) => Math.floor(((lng + 180) / 360) * n);
const tileY = (lat: number, n: number) => {
  const r = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
};
const tileLng = (x: number, n: number) => (x / n) * 360 - 180;
const tileLat = (y: number, n: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;

/**
 * The web-mercator tiles of an installation's tile server ({z}, {x}, {y} in the template) that
 * cover the plot, at the zoom whose pixels are nearest the plot's, each stretched between its
 * corners' places on the plot (across one tile the two projections differ by less than a pixel).
 */
export function tilesFor(
  template: string,
  view: Pick<Projection, 'toXY' | 'toLatLng' | 'metresPerPx'>,
  width: number,
  height: number,
): PlacedTile[] {
  const nw = view.toLatLng(0, 0);
  const se = view.toLatLng(width, height);
  const midLat = (nw.lat + se.lat) / 2;
  const z = Math.max(
    0,
    Math.min(19, Math.round(Math.log2((156_543.03 * Math.cos((midLat * Math.PI) / 180)) / view.metresPerPx))),
  );
  const n = 2 ** z;
  const tiles: PlacedTile[] = [];
  const [x0, x1] = [tileX(nw.lng, n), tileX(se.lng, n)];
  const [y0, y1] = [tileY(nw.lat, n), tileY(se.lat, n)];
  // A plot is never more than a few tiles across; the bound keeps a wrong template from flooding.
  if ((x1 - x0 + 1) * (y1 - y0 + 1) > 64) return [];
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      if (tx < 0 || ty < 0 || tx >= n || ty >= n) continue;
      const a = view.toXY(tileLat(ty, n), tileLng(tx, n));
      const b = view.toXY(tileLat(ty + 1, n), tileLng(tx + 1, n));
      tiles.push({
        href: template.replace('{z}', String(z)).replace('{x}', String(tx)).replace('{y}', String(ty)),
        x: a.x,
        y: a.y,
        width: b.x - a.x,
        height: b.y - a.y,
      });
    }
  }
  return tiles;
}

/** A scale bar of a round length (1, 2 or 5 times a power of ten metres) near the wanted width. */
export function scaleBar(metresPerPx: number, wantPx: number): { metres: number; px: number } {
  const want = metresPerPx * wantPx;
  const pow = 10 ** Math.floor(Math.log10(want));
  const metres = [5, 2, 1].map((f) => f * pow).find((v) => v <= want) ?? pow;
  return { metres, px: metres / metresPerPx };
}

/** A length for the scale bar: metres below a kilometre, else kilometres. */
export function formatDistance(metres: number): string {
  return metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
}

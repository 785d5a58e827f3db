import { describe, expect, it } from 'vitest';
import { formatDistance, fractionIn, planFileProblem, projectSites, scaleBar, tilesFor } from './siteRules';

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);

describe('planFileProblem', () => {
  it.each([
    ['a small PNG', 5000, PNG_HEAD, null],
    ['a JPEG of exactly 1 MB', 1_000_000, JPEG_HEAD, null],
    ['a PNG one byte over 1 MB', 1_000_001, PNG_HEAD, 'too_large'],
    ['text', 20, new TextEncoder().encode('hello world'), 'format'],
    ['a GIF', 20, new TextEncoder().encode('GIF89a'), 'format'],
    ['an empty file', 0, new Uint8Array(), 'format'],
  ])('judges %s', (_what, size, head, problem) => {
    expect(planFileProblem(size, head)).toBe(problem);
  });
});

describe('fractionIn', () => {
  const box = { left: 100, top: 50, width: 400, height: 200 };
  it('gives the place as fractions of the box', () => {
    expect(fractionIn(box, 200, 100)).toEqual({ x: 0.25, y: 0.25 });
    expect(fractionIn(box, 500, 250)).toEqual({ x: 1, y: 1 });
  });
  it('is null outside the box or for an empty box', () => {
    expect(fractionIn(box, 99, 100)).toBeNull();
    expect(fractionIn(box, 200, 251)).toBeNull();
    expect(fractionIn({ ...box, width: 0 }, 100, 50)).toBeNull();
  });
});

describe('projectSites', () => {
  it('keeps north up and east right, and fits the bounding box', () => {
    const { xy, metresPerPx } = projectSites(
      [
        { lat: 48.15, lng: 17.1 },
        { lat: 48.2, lng: 17.2 },
      ],
      400,
      300,
      20,
    );
    expect(xy[1]!.x).toBeGreaterThan(xy[0]!.x);
    expect(xy[1]!.y).toBeLessThan(xy[0]!.y);
    for (const p of xy) {
      expect(p.x).toBeGreaterThanOrEqual(20 - 1e-9);
      expect(p.x).toBeLessThanOrEqual(380 + 1e-9);
      expect(p.y).toBeGreaterThanOrEqual(20 - 1e-9);
      expect(p.y).toBeLessThanOrEqual(280 + 1e-9);
    }
    // 0.1° of longitude at 48° N is about 7.4 km over at most 360 px.
    expect(metresPerPx).toBeGreaterThan(20);
    expect(metresPerPx).toBeLessThan(25);
  });
  it('centres a single site with a kilometre around it', () => {
    const { xy, metresPerPx } = projectSites([{ lat: 48, lng: 17 }], 200, 200, 0);
    expect(xy).toEqual([{ x: 100, y: 100 }]);
    expect(metresPerPx).toBe(5);
  });
});

describe('scaleBar', () => {
  it.each([
    [10, 100, 1000, 100],
    [3, 100, 200, 200 / 3],
    [0.5, 120, 50, 100],
  ])('at %f m/px near %i px is %i m', (mpp, want, metres, px) => {
    const bar = scaleBar(mpp, want);
    expect(bar.metres).toBe(metres);
    expect(bar.px).toBeCloseTo(px);
  });
  it('writes metres and kilometres', () => {
    expect(formatDistance(500)).toBe('500 m');
    expect(formatDistance(2000)).toBe('2 km');
  });
});

describe('tilesFor', () => {
  const sites = [
    { lat: 48.1486, lng: 17.1077 },
    { lat: 48.1702, lng: 17.2025 },
  ];
  const view = projectSites(sites, 800, 500, 40);

  it('maps plot pixels back to the degrees they came from', () => {
    const p = view.toXY(48.16, 17.15);
    const back = view.toLatLng(p.x, p.y);
    expect(back.lat).toBeCloseTo(48.16, 9);
    expect(back.lng).toBeCloseTo(17.15, 9);
    expect(view.toXY(sites[0]!.lat, sites[0]!.lng)).toEqual(view.xy[0]);
  });

  it('covers the plot with tiles of the nearest zoom, named by the template', () => {
    const tiles = tilesFor('https://tiles.example.net/{z}/{x}/{y}.png', view, 800, 500);
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.length).toBeLessThanOrEqual(64);
    for (const t of tiles) expect(t.href).toMatch(/^https:\/\/tiles\.example\.net\/1[2-4]\/\d+\/\d+\.png$/);
    // Together they reach past every edge of the plot.
    expect(Math.min(...tiles.map((t) => t.x))).toBeLessThanOrEqual(0);
    expect(Math.min(...tiles.map((t) => t.y))).toBeLessThanOrEqual(0);
    expect(Math.max(...tiles.map((t) => t.x + t.width))).toBeGreaterThanOrEqual(800);
    expect(Math.max(...tiles.map((t) => t.y + t.height))).toBeGreaterThanOrEqual(500);
    // Tiles are drawn at about their own size (256 px).
    for (const t of tiles) expect(t.width).toBeGreaterThan(150);
  });
});

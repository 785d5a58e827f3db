import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config';
import { contentSecurityPolicy } from '../http/securityHeaders';

const base = { PUBLIC_READ_BASE: '/api/read', PUBLIC_WRITE_BASE: '/api/write', PUBLIC_WS_URL: '/ws' };

describe('MAP_TILE_URL', () => {
  it('is empty by default, and images then come only from the portal', () => {
    expect(loadConfig({}).MAP_TILE_URL).toBe('');
    expect(contentSecurityPolicy(base)).toContain("img-src 'self' data: blob:;");
  });

  it('takes an https template and lets the browser load images from its host', () => {
    const url = 'https://tiles.example.net/osm/{z}/{x}/{y}.png';
    expect(loadConfig({ MAP_TILE_URL: url }).MAP_TILE_URL).toBe(url);
    expect(contentSecurityPolicy({ ...base, MAP_TILE_URL: url })).toContain(
      "img-src 'self' data: blob: https://tiles.example.net;",
    );
  });

  it.each([
    'http://tiles.example.net/{z}/{x}/{y}.png',
    'https://tiles.example.net/{z}/{x}.png',
    'tiles.example.net/{z}/{x}/{y}.png',
    'https://tiles.example.net/{z}/{x}/{y}.png" onerror="x',
  ])('refuses %s', (url) => {
    expect(() => loadConfig({ MAP_TILE_URL: url })).toThrow(ConfigError);
  });
});

/** Runtime configuration: the SPA learns its three base addresses from /config.json. */

export interface PortalConfig {
  readBase: string;
  writeBase: string;
  wsUrl: string;
  /** The installation's time zone: days, weeks and months are cut in it. */
  tz?: string;
  oidc: { issuer: string; clientId: string };
  /** The installation's map tiles ({z}, {x}, {y}); absent or empty: the sites view draws none. */
  mapTileUrl?: string;
}

const FALLBACK: PortalConfig = {
  readBase: '/api/read',
  writeBase: '/api/write',
  wsUrl: '/ws',
  oidc: { issuer: '', clientId: '' },
};

let current: PortalConfig = FALLBACK;

function isConfig(v: unknown): v is PortalConfig {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return typeof c.readBase === 'string' && typeof c.writeBase === 'string' && typeof c.wsUrl === 'string';
}

/** Loads /config.json once at start; a missing file keeps the same-origin defaults. */
export async function loadConfig(): Promise<PortalConfig> {
  try {
    const res = await fetch('/config.json', { credentials: 'same-origin' });
    if (res.ok) {
      const body: unknown = await res.json();
      if (isConfig(body)) {
        const oidc = (body as { oidc?: Partial<PortalConfig['oidc']> }).oidc ?? {};
        current = { ...body, oidc: { issuer: oidc.issuer ?? '', clientId: oidc.clientId ?? '' } };
      }
    }
  } catch {
    // The same-origin defaults are right for the standard deployment.
  }
  return current;
}

export function getConfig(): PortalConfig {
  return current;
}

/** Turns a relative websocket path into an absolute ws(s) URL for the current page. */
export function resolveWsUrl(wsUrl: string, location: { protocol: string; host: string }): string {
  if (/^wss?:\/\//.test(wsUrl)) return wsUrl;
  if (/^https?:\/\//.test(wsUrl)) return wsUrl.replace(/^http/, 'ws');
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${wsUrl.startsWith('/') ? '' : '/'}${wsUrl}`;
}

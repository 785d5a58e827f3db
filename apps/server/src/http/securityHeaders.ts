import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Hashed build output: its name changes with its content, so a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Answers that carry a token or personal data, and the app's shell, are never stored. */
export const NO_STORE = 'no-store';

/** Extensions the build writes brotli and gzip copies of (see apps/web/vite.config.ts). */
export const COMPRESSED_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.map',
]);

/** The origin of an absolute http(s) or ws(s) address, or nothing for a same-origin path. */
function originOf(address: string | undefined): string | undefined {
  if (!address || !/^(https?|wss?):\/\//i.test(address)) return undefined;
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/**
 * Content-Security-Policy of the portal. Scripts come only from the portal itself (the build emits
 * no inline script). Styles allow 'unsafe-inline': antd writes its theme as <style> elements at run
 * time and ECharts and antd position elements with style attributes; neither can carry a nonce
 * without rendering the shell per request, and styles cannot run code. The API bases, the live
 * socket and the identity provider (its token endpoint is fetched, its renewal page is framed) are
 * named when they live on another origin.
 */
export function contentSecurityPolicy(cfg: {
  PUBLIC_READ_BASE: string;
  PUBLIC_WRITE_BASE: string;
  PUBLIC_WS_URL: string;
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  MAP_TILE_URL?: string;
}): string {
  // The sites view draws an installation's own map tiles when one is configured.
  const tiles = cfg.MAP_TILE_URL ? originOf(cfg.MAP_TILE_URL.replace(/\{[a-z]\}/g, '0')) : undefined;
  const idp = cfg.OIDC_CLIENT_ID ? originOf(cfg.OIDC_ISSUER) : undefined;
  const connect = new Set(["'self'"]);
  for (const a of [cfg.PUBLIC_READ_BASE, cfg.PUBLIC_WRITE_BASE, cfg.PUBLIC_WS_URL, idp]) {
    const o = originOf(a);
    if (o) connect.add(o);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ''}`,
    "font-src 'self' data:",
    `connect-src ${[...connect].join(' ')}`,
    `frame-src ${idp ? `'self' ${idp}` : "'self'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Cache-Control of a file the static handler sends: hashed assets for a year, the app's shell
 * never stored, other files revalidated. Compressible files vary by Accept-Encoding, since the
 * handler picks the brotli or gzip copy by it.
 */
export function staticFileHeaders(
  res: { setHeader(name: string, value: string): unknown },
  filePath: string,
): void {
  const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
  const hashed = /[\\/]assets[\\/]/.test(filePath);
  res.setHeader('Cache-Control', name === 'index.html' ? NO_STORE : hashed ? IMMUTABLE : 'no-cache');
  if (COMPRESSED_EXTENSIONS.has(path.extname(name))) res.setHeader('Vary', 'Accept-Encoding');
}

/**
 * The identity provider's silent renewal returns to this page inside a frame of the portal itself,
 * so it alone may be framed, and only by the portal's own origin.
 */
export const SILENT_RENEWAL_PATH = '/login/silent';

/**
 * Security headers on every answer, and no-store on every answer that did not choose its own
 * caching (all of the API: tokens and personal data must not stay in a shared or browser cache).
 * HSTS only over https, where it means something.
 */
export function installSecurityHeaders(app: FastifyInstance, csp: string): void {
  const renewalCsp = csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'");
  app.addHook('onSend', async (req, reply, payload) => {
    const renewal = req.url.split('?')[0] === SILENT_RENEWAL_PATH;
    reply.header('Content-Security-Policy', renewal ? renewalCsp : csp);
    reply.header('X-Frame-Options', renewal ? 'SAMEORIGIN' : 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (req.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', NO_STORE);
    return payload;
  });
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/crypto';
import { DIALECTS, addUser, call, createTestApp, signIn, type TestApp } from '../test/harness';
import { contentSecurityPolicy, installSecurityHeaders } from './securityHeaders';

const SCRIPT = `console.log(${JSON.stringify('meter portal '.repeat(200))});`;

/** A built web app in miniature: the shell, a hashed asset with its brotli and gzip copies. */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const js = path.join(dir, 'assets/index-AbC123.js');
  fs.writeFileSync(js, SCRIPT);
  fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync(SCRIPT));
  return dir;
}

describe('security headers and caching', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await createTestApp(DIALECTS[0]!, { env: { WEB_DIST: dist } });
    await addUser(t.services, 'bob', 'secret');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends a script policy without inline code, frame denial, nosniff and a referrer policy', async () => {
    for (const url of ['/', '/login', '/config.json', '/api/read/nothing', '/assets/index-AbC123.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('lets only the silent-renewal page be framed, and only by the portal itself', async () => {
    for (const url of ['/login/silent', '/login/silent?code=x&state=y']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'self'");
      expect(csp, url).not.toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
    for (const url of ['/login/silent/x', '/login/silentx', '/api/read/login/silent']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('never lets an answer with a token or personal data be stored', async () => {
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/read/auth/local',
      payload: { login: 'bob', password: sha256Hex('secret') },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const bob = await signIn(t.app, 'bob', 'secret');
    const hierarchy = await call(
      t.app,
      'POST',
      '/api/read/facility/devices-hierarchy',
      { token: bob.token },
      bob,
    );
    expect(hierarchy.headers['cache-control']).toBe('no-store');
    const denied = await call(t.app, 'POST', '/api/read/facility/devices-hierarchy', {});
    expect(denied.statusCode).toBeGreaterThanOrEqual(400);
    expect(denied.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/config.json' })).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('caches hashed assets for a year and never stores the shell', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/index.html', '/login', '/visualization/profile/voltage']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).headers['cache-control']).toBe(
      'no-cache',
    );
  });

  it('sends the brotli or gzip copy by Accept-Encoding, varying by it', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    // The compressed copies are not files of their own.
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js.br' })).statusCode).toBe(404);
  });
});

describe('HSTS', () => {
  it('is sent only when the request came over https', async () => {
    const app = Fastify({ trustProxy: true });
    installSecurityHeaders(app, "default-src 'self'");
    app.get('/x', () => ({ ok: true }));
    const plain = await app.inject({ method: 'GET', url: '/x' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const https = await app.inject({ method: 'GET', url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await app.close();
  });
});

describe('content security policy', () => {
  const base = { PUBLIC_READ_BASE: '/api/read', PUBLIC_WRITE_BASE: '/api/write', PUBLIC_WS_URL: '/ws' };

  it('names the identity provider only when one is configured', () => {
    expect(
      contentSecurityPolicy({ ...base, OIDC_ISSUER: 'https://id.example.com/realms/x', OIDC_CLIENT_ID: '' }),
    ).not.toContain('id.example.com');
    const csp = contentSecurityPolicy({
      ...base,
      OIDC_ISSUER: 'https://id.example.com/realms/x',
      OIDC_CLIENT_ID: 'portal',
    });
    expect(csp).toMatch(/connect-src 'self' https:\/\/id\.example\.com;/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/id\.example\.com;/);
  });

  it('lets the app reach API bases and a live socket on other origins', () => {
    const csp = contentSecurityPolicy({
      PUBLIC_READ_BASE: 'https://read.example.com/api',
      PUBLIC_WRITE_BASE: '/api/write',
      PUBLIC_WS_URL: 'wss://live.example.com/ws',
    });
    expect(csp).toContain("connect-src 'self' https://read.example.com wss://live.example.com;");
  });
});

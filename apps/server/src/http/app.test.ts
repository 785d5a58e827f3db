import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestApp, type TestApp } from '../test/harness';

describe('application shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DIALECTS[0]!);
  });
  afterAll(() => t.close());

  it('tells the SPA its three bases and the installation time zone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/config.json' });
    expect(res.json()).toMatchObject({
      readBase: '/api/read',
      writeBase: '/api/write',
      wsUrl: '/ws',
      version: '1.4.23',
      tz: t.config.TZ,
    });
  });

  it('sends the zone it is configured with', async () => {
    const other = await createTestApp(DIALECTS[0]!, { env: { TZ: 'America/New_York' } });
    try {
      expect((await other.app.inject({ method: 'GET', url: '/config.json' })).json()).toMatchObject({
        tz: 'America/New_York',
      });
    } finally {
      await other.close();
    }
  });

  it('answers health with the roles', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.json()).toMatchObject({ status: 'OK', roles: expect.arrayContaining(['read', 'write']) });
  });

  it('publishes an OpenAPI document with every API route and a browsable page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, object>;
    }>();
    for (const r of t.app.apiRoutes) {
      // OpenAPI writes path parameters as {name} where the route has :name.
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path], r.url).toHaveProperty(r.method.toLowerCase());
    }
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
  });
});

describe('roles', () => {
  it('serves only the read door when only read is selected', async () => {
    const t = await createTestApp(DIALECTS[0]!, { env: { ROLES: 'read' } });
    expect(t.app.apiRoutes.every((r) => r.url.startsWith('/api/read/'))).toBe(true);
    const w = await t.app.inject({ method: 'POST', url: '/api/write/auth/logout', payload: {} });
    expect(w.statusCode).toBe(404);
    await t.close();
  });
});

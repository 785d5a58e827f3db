import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_KINDS, routes, type RouteDef } from '@meterportal/protocol';
import { DIALECTS, createTestApp, type TestApp } from '../test/harness';
import { route } from './route';

const BASES = { read: '/api/read', write: '/api/write' } as const;

describe('route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DIALECTS[0]!);
  });
  afterAll(() => t.close());

  it('registers exactly the routes of the table, each on its door', () => {
    const fromTable = Object.values(routes)
      .map((r) => `${r.method} ${BASES[r.door]}${r.path}`)
      .sort();
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`).sort();
    expect(registered).toEqual(fromTable);
    expect(new Set(registered).size).toBe(registered.length);
  });

  it('describes every route in the OpenAPI document with the summary of its table entry', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
    }>();
    for (const r of Object.values(routes)) {
      const op = doc.paths[`${BASES[r.door]}${r.path.replace(/:(\w+)/g, '{$1}')}`]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toMatchObject({ summary: r.summary, tags: [r.tag] });
    }
  });

  it('declares how every route of the table is authenticated', () => {
    for (const [name, r] of Object.entries(routes)) expect(SESSION_KINDS, name).toContain(r.session);
  });

  it('refuses to register a table entry that declares no session kind', () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    const { session: _dropped, ...entry } = routes.detailsRead;
    const undeclared = entry as unknown as RouteDef;
    expect(() => route(app, undeclared, () => Promise.reject(new Error('not called')))).toThrow(
      /declares no session kind/,
    );
  });
});

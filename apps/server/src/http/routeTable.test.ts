import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@meterportal/protocol';
import { DIALECTS, createTestApp, type TestApp } from '../test/harness';

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
});

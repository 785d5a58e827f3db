import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  createTestApp,
  multipartBody,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { SESSION_COOKIE } from './session';

/**
 * Hostile requests against every registered API route: deep nesting, huge strings, wrong types,
 * NUL characters, broken JSON, wrong content types, multipart garbage, odd headers and queries.
 * No answer may be a server error, and an answer of 4xx must leave every table as it was.
 */

/** Field names the API's bodies use, so generated bodies reach past the first missing field. */
const FIELDS = [
  'token',
  'user_token',
  'device_token',
  'login',
  'password',
  'oldPassword',
  'newPassword',
  'application',
  'menu',
  'MRK',
  'RK',
  'data',
  'phase',
  'from',
  'to',
  'format',
  'cumulative',
  'source',
  'period',
  'maximum',
  'meter',
  'ID_meter',
  'meter_ID',
  'ID',
  'meters',
  'device',
  'lifeTime',
  'notifyTypeID',
  'notifyDestID',
  'webex_space',
  'state',
  'page',
  'SNUM',
  'CONSTANT',
  'name',
  'devices',
  'expiresAt',
  'id',
  'quantity',
  'kind',
  'types',
  'from_ms',
  'to_ms',
  'read',
  'before_id',
  'limit',
  'ids',
  'email',
  'language',
  'tariff',
  'validFrom',
  'months',
  'lang',
  'rule',
  'note',
  'severity',
  'fw',
  'version',
  'device_type',
  'series',
  'family',
  'mac',
  'title',
  'type',
  'topic',
  'tz',
  'owner',
  'section',
  'lora',
  'wifi',
  'measurement',
  'appKey',
  'echoIntervalSec',
  'ssid',
  'ip',
  'mode',
  'activeChannels',
  'process',
  'autoLearn',
  'week',
  'weeks',
  'hoursInRow',
  'group',
  'x',
  'y',
  'mapping',
  'rows',
  'path',
  'scale',
  'timePath',
  'timeFormat',
  'month',
  'folder',
  'every',
  'delivery',
] as const;

const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uFFFF',
  "x' OR '1'='1",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  'NaN',
  '-1',
  '1e400',
  'U,I,P',
  'L1,L2,L3,L4',
  '2026-11-16',
  '2026-11-17',
];

interface World {
  t: TestApp;
  alice: Client;
  /** Alice's integration token, sent as a bearer by some requests. */
  bearer: string;
}

/** A value of any JSON type, with the world's real tokens among the strings. */
function value(w: World): fc.Arbitrary<unknown> {
  const tokens = fc.constantFrom(
    w.alice.token,
    w.alice.devices[0]!.token,
    w.alice.devices[1]!.token,
    'alice',
  );
  const leaf = fc.oneof(
    tokens,
    fc.constantFrom(...NASTY_STRINGS),
    fc.string({ maxLength: 40, unit: 'binary' }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(0, -1, 1_700_000_000, 1_800_000_000, 2 ** 53, Number.MAX_VALUE),
  );
  return fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom(...FIELDS), tie('v'), { maxKeys: 5 }),
    ),
  })).v;
}

/** A body object shaped like the API's: known field names with any values. */
const bodyObject = (w: World) =>
  fc.dictionary(fc.constantFrom(...FIELDS), value(w), { minKeys: 1, maxKeys: 8 });

/** Arrays or objects nested `depth` levels around a value. */
function nest(depth: number, asObject: boolean, inner: unknown): unknown {
  let v = inner;
  for (let i = 0; i < depth; i++) v = asObject ? { menu: v } : [v];
  return v;
}

type Payload = { contentType?: string; payload?: string | Buffer };

/** Every kind of body the fuzz sends, with the content type it claims. */
function payload(w: World): fc.Arbitrary<Payload> {
  const json = (v: unknown): Payload => ({ contentType: 'application/json', payload: JSON.stringify(v) });
  return fc.oneof(
    bodyObject(w).map(json),
    fc
      .tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean(), bodyObject(w))
      .map(([d, o, b]) => json({ ...b, meter: nest(d, o, 1) })),
    fc.tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean()).map(([d, o]) => json(nest(d, o, {}))),
    fc.tuple(fc.integer({ min: 13, max: 700 }), bodyObject(w)).map(([d, b]) => {
      let node: object = { title: 'n', data: { id: 'n' } };
      for (let i = 0; i < d; i++) node = { title: `n${i}`, data: { id: `n${i}` }, children: [node] };
      return json({ ...b, menu: JSON.stringify({ nodes: [node], tags: [] }) });
    }),
    fc
      .tuple(fc.constantFrom(...FIELDS), fc.integer({ min: 1000, max: 400_000 }), bodyObject(w))
      .map(([k, n, b]) => json({ ...b, [k]: 'x'.repeat(n) })),
    fc
      .tuple(fc.constantFrom(...FIELDS), fc.string({ maxLength: 20 }), bodyObject(w))
      .map(([k, s, b]) => json({ ...b, [k]: `\u0000${s}\u0000` })),
    fc
      .string({ maxLength: 200, unit: 'binary' })
      .map((s): Payload => ({ contentType: 'application/json', payload: s })),
    fc
      .constantFrom(
        '{',
        '[',
        '{"token":',
        '{"a":1}}',
        'null',
        '"x"',
        '1',
        '[]',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
      )
      .map((s): Payload => ({ contentType: 'application/json', payload: s })),
    fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'application/json; charset=latin1',
          'application/octet-stream',
          'image/png',
          '*/*',
          'application/json;;;',
        ),
        bodyObject(w),
      )
      .map(([contentType, b]): Payload => ({ contentType, payload: JSON.stringify(b) })),
    fc.constant<Payload>({}),
    fc
      .uint8Array({ maxLength: 300 })
      .map((bytes): Payload => ({ contentType: 'multipart/form-data', payload: Buffer.from(bytes) })),
    fc
      .tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('x', '----b', ''))
      .map(([bytes, boundary]): Payload => ({
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: Buffer.concat([Buffer.from(`--${boundary}\r\n`), Buffer.from(bytes)]),
      })),
  );
}

/** A well-formed image upload cut short, or with its boundary swapped for another. */
async function brokenUploads(w: World): Promise<Payload[]> {
  const good = await multipartBody({ device_token: w.alice.devices[1]!.token, meter_ID: '1' }, [
    { name: 'a.png', type: 'image/png', bytes: new Uint8Array(5000) },
  ]);
  const cuts = [10, 50, 100, 200, 400, good.payload.length - 100, good.payload.length - 3];
  // Site plans: one over 1 MB, and text named as a PNG.
  const plans = await Promise.all(
    [new Uint8Array(1_000_100), new TextEncoder().encode('not a picture')].map((bytes) =>
      multipartBody({ user_token: w.alice.token, name: 'Plan' }, [
        { name: 'plan.png', type: 'image/png', bytes },
      ]),
    ),
  );
  return [
    ...plans,
    ...cuts.map((n) => ({ contentType: good.contentType, payload: good.payload.subarray(0, n) })),
    { contentType: 'multipart/form-data', payload: good.payload },
    { contentType: 'multipart/form-data; boundary=', payload: good.payload },
  ];
}

const headers = (w: World) =>
  fc.dictionary(
    fc.constantFrom(
      'accept',
      'accept-encoding',
      'accept-language',
      'x-forwarded-for',
      'x-forwarded-proto',
      'origin',
      'referer',
      'range',
      'if-none-match',
      'authorization',
    ),
    fc.oneof(
      fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
      fc.constantFrom(
        '*/*',
        'br',
        'bytes=0-1',
        'Bearer x',
        '1.2.3.4, 5.6.7.8',
        'text/csv',
        `Bearer ${w.bearer}`,
      ),
    ),
    { maxKeys: 3 },
  );

const query = fc.option(
  fc.dictionary(
    fc.constantFrom(...FIELDS),
    fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('\u0000', '%', '1e400', 'x'.repeat(5000), 'P,U', 'E_I', 'csv', '2026-03-29T00:00:00Z'),
    ),
    { maxKeys: 3 },
  ),
  { nil: undefined },
);

/** Fills a route's path parameters with a generated value. */
const fillParams = (url: string, param: string) => url.replace(/:(\w+)/g, () => encodeURIComponent(param));

describe.each(DIALECTS.map((d, i) => ({ ...d, runs: i === 0 ? 3000 : 400 })))('fuzz on $name', (dialect) => {
  let w: World;

  beforeAll(async () => {
    const t = await createTestApp(dialect);
    const id = await addUser(t.services, 'alice', 'alice-secret');
    await assign(t.services, id, await addDevice(t.services, '02-4D-50-00-00-01', 4), true);
    await assign(t.services, id, await addDevice(t.services, '02-4D-50-00-00-03', 3), true);
    const alice = await quickSession(t.services, id);
    const session = await t.services.auth.resolveSession(alice.cookie);
    const token = await t.services.integrationTokens.create(session, { user_token: '', name: 'Fuzz' });
    w = { t, alice, bearer: token.secret };
  });
  afterAll(() => w.t.close());

  it(`answers ${dialect.runs} hostile requests over every route without a server error, changing nothing on 4xx`, async () => {
    const routes = w.t.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(30);
    const uploads = await brokenUploads(w);
    const seen = new Set<string>();
    const request = fc.record({
      route: fc.constantFrom(...routes),
      signedIn: fc.boolean(),
      body: fc.oneof(
        { weight: 9, arbitrary: payload(w) },
        { weight: 1, arbitrary: fc.constantFrom(...uploads) },
      ),
      headers: headers(w),
      query,
      param: fc.oneof(
        fc.constantFrom('1', '0', '-1', '99999999999999999999', 'abc', '%00', '..%2f..', '02-4D-50-00-00-01'),
        fc.string({ maxLength: 10 }),
      ),
    });
    // Every route is tried at least once, whatever the seed draws: one drawn request per route first.
    type HostileRequest = typeof request extends fc.Arbitrary<infer R> ? R : never;
    const firstOfEach: [HostileRequest][] = routes.map((route, i) => [
      { ...fc.sample(request, { numRuns: 1, seed: i + 1 })[0]!, route },
    ]);
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        seen.add(`${r.route.method} ${r.route.url}`);
        const before = await snapshot(w.t.services);
        const options: InjectOptions = {
          method: r.route.method as InjectOptions['method'],
          url: fillParams(r.route.url, r.param),
          headers: { ...r.headers, ...(r.body.contentType ? { 'content-type': r.body.contentType } : {}) },
          ...(r.query ? { query: r.query } : {}),
          ...(r.body.payload !== undefined && r.route.method !== 'GET' ? { payload: r.body.payload } : {}),
          ...(r.signedIn ? { cookies: { [SESSION_COOKIE]: w.alice.cookie } } : {}),
        };
        const res = await w.t.app.inject(options);
        expect(res.statusCode, `${r.route.method} ${r.route.url}: ${res.body.slice(0, 300)}`).toBeLessThan(
          500,
        );
        if (res.statusCode >= 400) {
          expect(res.json(), res.body.slice(0, 300)).toMatchObject({ status: 'ERROR' });
          expect(await snapshot(w.t.services)).toEqual(before);
        } else if (/logout|change-password/.test(r.route.url)) {
          // A request that really signed alice out or changed her password: give her a new session.
          w.alice = {
            ...w.alice,
            ...(await quickSession(w.t.services, (await w.t.services.repos.users.findByLogin('alice'))!.id)),
          };
        }
      }),
      {
        numRuns: dialect.runs,
        seed: Number(process.env.FUZZ_SEED ?? 20261124),
        verbose: 1,
        examples: firstOfEach,
      },
    );
    expect(seen.size).toBe(routes.length);
  }, 600_000);
});

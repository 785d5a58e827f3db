import crypto from 'node:crypto';
import { AuthType, OWNER_LIFETIME_SEC, type ApplicationName } from '@meterportal/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../clock';
import { loadConfig, type Config } from '../config/config';
import { dropPgSchema, openDatabase } from '../db/database';
import type { DialectCase } from './dialects';
import { migrateToLatest } from '../db/migrations/index';
import { buildApp, type RouteEntry, type RouteModules } from '../http/app';
import { createServices, type Services } from '../services';
import { hashPasswordDigest, sha256Hex } from '../auth/crypto';
import type { OidcVerifier } from '../auth/oidc';
import { SESSION_COOKIE } from '../http/session';
import type { LiveBus } from '../live/bus';
import type { DeviceCommander } from '../precision/commands.service';

export { DIALECTS, type DialectCase } from './dialects';

/** A server built for one test file. */
export interface TestApp {
  app: FastifyInstance & { apiRoutes: RouteEntry[] };
  services: Services;
  clock: ManualClock;
  config: Config;
  pgSchema: string | undefined;
  close(): Promise<void>;
}

/** Builds the real application over a fresh database of the given dialect. */
export async function createTestApp(
  dialect: DialectCase,
  opts: {
    oidc?: OidcVerifier;
    env?: NodeJS.ProcessEnv;
    modules?: Partial<RouteModules>;
    /** Join another test app's PostgreSQL schema (a second instance); it is dropped by its owner. */
    sharePgSchemaOf?: TestApp;
    bus?: LiveBus;
    /** The services' log (silent by default). */
    logger?: FastifyBaseLogger;
    /** Answers device commands in place of the broker. */
    commander?: DeviceCommander;
    /** How long a device command waits for its reply, ms. */
    commandTimeoutMs?: number;
  } = {},
): Promise<TestApp> {
  const schema = opts.sharePgSchemaOf?.pgSchema ?? `t_${crypto.randomBytes(6).toString('hex')}`;
  const database = await openDatabase(
    dialect.url ? { url: dialect.url, pgSchema: schema, poolSize: 4 } : { sqliteFile: ':memory:' },
  );
  if (!opts.sharePgSchemaOf) await migrateToLatest(database);
  // The identity provider points at a closed loopback port unless a test starts a real one.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/unused',
    WEB_DIST: '/nonexistent',
    OIDC_ISSUER: 'http://127.0.0.1:9',
    ...opts.env,
  });
  const clock = new ManualClock();
  const services = await createServices({
    config,
    database,
    clock,
    ...(opts.oidc ? { oidc: opts.oidc } : {}),
    ...(opts.bus ? { bus: opts.bus } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.commander ? { commander: opts.commander } : {}),
    ...(opts.commandTimeoutMs ? { commandTimeoutMs: opts.commandTimeoutMs } : {}),
  });
  const app = await buildApp(services, { logger: false, ...(opts.modules ? { modules: opts.modules } : {}) });
  await app.ready();
  return {
    app,
    services,
    clock,
    config,
    pgSchema: dialect.url ? schema : undefined,
    async close() {
      await app.close();
      await database.close();
      if (dialect.url && !opts.sharePgSchemaOf) await dropPgSchema(dialect.url, schema);
    },
  };
}

/**
 * argon2id of each password a test uses, made once per process: a hash carries its own salt, so
 * users sharing a password may share it, and a test file no longer spends most of its time hashing.
 */
const passwordHashes = new Map<string, Promise<string>>();
function testPasswordHash(password: string): Promise<string> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPasswordDigest(sha256Hex(password));
    passwordHashes.set(password, hash);
  }
  return hash;
}

/** Creates a local user with a password. */
export async function addUser(
  s: Services,
  login: string,
  password: string,
  application: ApplicationName | '' = '',
): Promise<number> {
  const u = await s.repos.users.create({
    login,
    auth_type: AuthType.Local,
    password_hash: await testPasswordHash(password),
    issuer: null,
    subject: null,
    user_name: null,
    avatar: null,
    applications: application ? [application] : [],
    created_at_ms: s.clock.nowMs(),
  });
  return u.id;
}

/** Creates a device. */
export async function addDevice(
  s: Services,
  mac: string,
  type = 4,
  title = `Meter ${mac.slice(-2)}`,
): Promise<number> {
  const d = await s.repos.devices.createDevice({
    mac,
    type,
    title,
    description: type === 3 ? 'PTE' : null,
    phase_use: 3,
    lora: type === 1 ? 1 : 0,
    nilm_process: 0,
    nilm_autolearn: 0,
    fw: null,
    created_at_ms: s.clock.nowMs(),
  });
  return d.id;
}

/** Assigns a device; owner by default, else valid for lifeSec from now. */
export async function assign(
  s: Services,
  userId: number,
  deviceId: number,
  owner = true,
  lifeSec = 3600,
): Promise<void> {
  await s.repos.devices.assign({
    userId,
    deviceId,
    owner,
    lifeTimeSec: owner ? OWNER_LIFETIME_SEC : Math.floor(s.clock.nowMs() / 1000) + lifeSec,
    nowMs: s.clock.nowMs(),
  });
}

/** A signed-in client: its token, cookie and device list. */
export interface Client {
  token: string;
  cookie: string;
  devices: {
    mac: string;
    token: string;
    owner: boolean;
    type: number;
    expire: number;
    quantities?: string[];
  }[];
}

/** Signs in through the API like the browser does. */
export async function signIn(app: FastifyInstance, login: string, password: string): Promise<Client> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/read/auth/local',
    payload: { login, password: sha256Hex(password) },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${login} failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ data: Client['devices']; user: { token: string } }>();
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
  if (!cookie) throw new Error('no session cookie');
  return { token: body.user.token, cookie, devices: body.data };
}

/** Calls the API with the client's cookie (a GET sends no body). */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload: unknown,
  client?: Pick<Client, 'cookie'> | null,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(method === 'GET' ? {} : { payload: payload as object }),
    ...(client ? { cookies: { [SESSION_COOKIE]: client.cookie } } : {}),
  });
}

/** A file for a multipart upload. */
export interface UploadFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A multipart/form-data body as a browser's FormData would send it. */
export async function multipartBody(
  fields: Record<string, string>,
  files: readonly UploadFile[],
  fileField = 'file',
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(fileField, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

/** Posts a multipart form with the client's cookie. */
export async function callMultipart(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  files: readonly UploadFile[],
  client?: Pick<Client, 'cookie'> | null,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipartBody(fields, files);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...headers, 'content-type': body.contentType },
    ...(client ? { cookies: { [SESSION_COOKIE]: client.cookie } } : {}),
  });
}

/**
 * The store's tables and views (Kysely's own migration tables left out). On PostgreSQL only its
 * own schema is read: other runs sharing the database create, migrate and drop theirs meanwhile,
 * and a catalog read across every schema fails when one goes away under it.
 */
async function tableNames(s: Services): Promise<string[]> {
  const db = s.database.db;
  if (s.database.dialect === 'sqlite') return (await db.introspection.getTables()).map((t) => t.name);
  const found = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = ${s.database.schema ?? 'public'} AND c.relkind IN ('r', 'v', 'p')
      AND c.relname NOT IN ('kysely_migration', 'kysely_migration_lock')`.execute(db);
  return found.rows.map((r) => r.name);
}

/** Every row of every table, for asserting that a denied request changed nothing. */
export async function snapshot(s: Services): Promise<Record<string, unknown[]>> {
  const db = s.database.db;
  // Every table of the store, read from its catalog, so a table added later is covered unasked.
  const tables = (await tableNames(s)).sort();
  if (tables.length < 20) throw new Error(`snapshot found only ${tables.length} tables`);
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const rows = await sql`SELECT * FROM ${sql.table(t)}`.execute(db);
    // Row order is the engine's; sorted, two reads of unchanged rows compare equal.
    out[t] = rows.rows
      .map((r) => [JSON.stringify(r), r] as const)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, r]) => r);
  }
  return out;
}

/** A session made straight in the store (no password hashing), for tests that need many. */
export async function quickSession(s: Services, userId: number): Promise<Client> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = s.clock.nowMs();
  await s.database.db
    .insertInto('sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      auth_type: AuthType.Local,
      expires_at_ms: now + 3599_000,
      created_at_ms: now,
    })
    .execute();
  return { token, cookie: token, devices: await s.devices.deviceList(userId) };
}

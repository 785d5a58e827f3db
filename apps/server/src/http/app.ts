import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { APP_VERSION } from '@meterportal/protocol';
import type { Services } from '../services';
import { authReadRoutes, authWriteRoutes } from '../auth/auth.routes';
import { devicesReadRoutes, devicesWriteRoutes } from '../devices/devices.routes';
import { historyReadRoutes } from '../history/history.routes';
import { monitoringReadRoutes } from '../tools/monitoring.routes';
import { commandsWriteRoutes, precisionReadRoutes } from '../precision/commands.routes';
import { metersReadRoutes, metersWriteRoutes } from '../precision/meters.routes';
import { notificationsReadRoutes, notificationsWriteRoutes } from '../tools/notifications.routes';
import { alarmsReadRoutes, alarmsWriteRoutes } from '../tools/alarms.routes';
import { userManagerReadRoutes, userManagerWriteRoutes } from '../usermanager/usermanager.routes';
import { tariffsReadRoutes, tariffsWriteRoutes } from '../tariffs/tariffs.routes';
import { relayReadRoutes } from '../relay/relay.routes';
import { powerQualityReadRoutes } from '../powerquality/power-quality.routes';
import { firmwareReadRoutes, firmwareWriteRoutes } from '../firmware/firmware.routes';
import { exportsReadRoutes } from '../exports/exports.routes';
import { registrationReadRoutes, registrationWriteRoutes } from '../usermanager/registration.routes';
import { settingsReadRoutes, settingsWriteRoutes } from '../settings/settings.routes';
import { appliancesReadRoutes, appliancesWriteRoutes } from '../appliances/appliances.routes';
import { anomaliesReadRoutes, anomaliesWriteRoutes } from '../anomalies/anomalies.routes';
import { siteMapsReadRoutes, siteMapsWriteRoutes } from '../sitemaps/sitemaps.routes';
import { reportsReadRoutes, reportsWriteRoutes } from '../reports/reports.routes';
import { installErrorHandler } from './errorHandler';
import { InvalidRequest } from './errors';
import { MAX_BODY_DEPTH, jsonDepth } from './jsonLimits';
import { contentSecurityPolicy, installSecurityHeaders, staticFileHeaders } from './securityHeaders';
import { registerLiveRoutes } from '../live/live.routes';
import {
  integrationApiRoutes,
  integrationTokensReadRoutes,
  integrationTokensWriteRoutes,
} from '../integration/integration.routes';
import { BEARER_SCHEME, installIdentity } from './route';

/** A registered API route, for the authorization matrix and the docs. */
export interface RouteEntry {
  method: string;
  url: string;
}

/** Plugins of each API door, in registration order. */
export interface RouteModules {
  read: ((s: Services) => FastifyPluginAsyncZod)[];
  write: ((s: Services) => FastifyPluginAsyncZod)[];
}

const READ_BASE = '/api/read';
const WRITE_BASE = '/api/write';

/** Largest JSON body accepted by the API. */
export const BODY_LIMIT_BYTES = 256 * 1024;

function defaultWebDist(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
}

/** The HTTP application: the read and write doors, config, docs, health and the SPA. */
export async function buildApp(
  s: Services,
  opts: { logger?: boolean; modules?: Partial<RouteModules> } = {},
): Promise<FastifyInstance & { apiRoutes: RouteEntry[] }> {
  const app = Fastify({
    // The services' log (LOG_LEVEL), so requests, the hub and the background parts write alike.
    ...(opts.logger === false ? { logger: false } : { loggerInstance: s.logger }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Only listed proxies may name the client address; anyone else could forge X-Forwarded-For.
    trustProxy: s.config.TRUST_PROXY.length > 0 ? s.config.TRUST_PROXY : false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // JSON bodies are measured before they are parsed: validation walks a value recursively, so a
  // body nested hundreds of levels deep is refused here with 400 instead of overflowing the stack.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text, MAX_BODY_DEPTH + 1) > MAX_BODY_DEPTH) {
      done(
        new InvalidRequest(`Invalid request: JSON nested deeper than ${MAX_BODY_DEPTH} levels`),
        undefined,
      );
      return;
    }
    // Fastify's own parser hands its result to done; its return value carries nothing.
    void parseJson(req, text, done);
  });
  app.setSerializerCompiler(serializerCompiler);

  const apiRoutes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/api/read/') || r.url.startsWith('/api/write/')) {
      for (const m of [r.method].flat()) if (m !== 'HEAD') apiRoutes.push({ method: m, url: r.url });
    }
  });

  if (s.config.roles.has('ws')) await registerLiveRoutes(app, s.config, s.live.hub);

  const webDist = s.config.WEB_DIST ?? defaultWebDist();
  const index = path.join(webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  installErrorHandler(app, hasWeb ? index : undefined);
  installIdentity(app, {
    session: (sessionToken) => s.auth.resolveSession(sessionToken),
    bearer: (authorization) => s.integrationTokens.authenticate(authorization),
  });
  installSecurityHeaders(app, contentSecurityPolicy(s.config));
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Meter portal API',
        version: APP_VERSION,
        description:
          'Read and write doors of the portal. The integration API (/api/read/v1) takes an integration token as Authorization: Bearer; see docs/integration.md',
      },
      components: {
        securitySchemes: { [BEARER_SCHEME]: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await s.repos.health.ping();
    return { status: 'OK', version: APP_VERSION, roles: [...s.config.roles] };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    return reply.type(s.metrics.contentType).send(await s.metrics.metrics());
  });

  app.get('/config.json', { schema: { hide: true } }, () => ({
    readBase: s.config.PUBLIC_READ_BASE,
    writeBase: s.config.PUBLIC_WRITE_BASE,
    wsUrl: s.config.PUBLIC_WS_URL,
    version: APP_VERSION,
    // Days, weeks and months are cut in this zone; the browser builds its ranges and labels in it.
    tz: s.config.TZ,
    oidc: { issuer: s.config.OIDC_ISSUER, clientId: s.config.OIDC_CLIENT_ID },
    // Empty: the sites view draws without map tiles.
    mapTileUrl: s.config.MAP_TILE_URL,
  }));

  const modules: RouteModules = {
    read: [
      authReadRoutes,
      devicesReadRoutes,
      historyReadRoutes,
      monitoringReadRoutes,
      notificationsReadRoutes,
      alarmsReadRoutes,
      precisionReadRoutes,
      metersReadRoutes,
      userManagerReadRoutes,
      integrationTokensReadRoutes,
      integrationApiRoutes,
      tariffsReadRoutes,
      relayReadRoutes,
      firmwareReadRoutes,
      exportsReadRoutes,
      registrationReadRoutes,
      settingsReadRoutes,
      appliancesReadRoutes,
      powerQualityReadRoutes,
      anomaliesReadRoutes,
      siteMapsReadRoutes,
      reportsReadRoutes,
      ...(opts.modules?.read ?? []),
    ],
    write: [
      authWriteRoutes,
      devicesWriteRoutes,
      commandsWriteRoutes,
      metersWriteRoutes,
      notificationsWriteRoutes,
      alarmsWriteRoutes,
      userManagerWriteRoutes,
      integrationTokensWriteRoutes,
      tariffsWriteRoutes,
      firmwareWriteRoutes,
      registrationWriteRoutes,
      settingsWriteRoutes,
      appliancesWriteRoutes,
      anomaliesWriteRoutes,
      siteMapsWriteRoutes,
      reportsWriteRoutes,
      ...(opts.modules?.write ?? []),
    ],
  };
  if (s.config.roles.has('read')) {
    for (const m of modules.read) await app.register(m(s), { prefix: READ_BASE });
  }
  if (s.config.roles.has('write')) {
    for (const m of modules.write) await app.register(m(s), { prefix: WRITE_BASE });
  }

  if (hasWeb) {
    // The build writes .br and .gz copies beside each file; the handler picks one by Accept-Encoding.
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: staticFileHeaders,
    });
  }

  return Object.assign(app, { apiRoutes });
}

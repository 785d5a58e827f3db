import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import {
  DeviceCommandRequest,
  FirmwareUpgradeRequest,
  HarmonicsResponse,
  OkEnvelope,
  RelayRequest,
  RelayResponse,
  WaveformResponse,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

/** Aborts when the client goes away before its answer was sent, so no wait is left behind. */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** Read-side device commands: harmonics and waveform of precision analyzers. */
export function precisionReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/applied-precision/harmonics',
      { schema: { tags: ['precision'], summary: 'Harmonic spectrum from the device; 604 when it does not answer', body: DeviceCommandRequest, response: { 200: HarmonicsResponse, ...errorResponses } } },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.commands.harmonics(user, req.body.device_token, abortOnDisconnect(reply)) };
      },
    );
    app.post(
      '/applied-precision/waveform',
      { schema: { tags: ['precision'], summary: 'One period of voltage and current samples; 604 when the device does not answer', body: DeviceCommandRequest, response: { 200: WaveformResponse, ...errorResponses } } },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.commands.waveform(user, req.body.device_token, abortOnDisconnect(reply)) };
      },
    );
  };
}

/** Write-side device commands: firmware upgrade and relay. */
export function commandsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/devices/firmware-upgrade',
      { schema: { tags: ['devices'], summary: 'Start a firmware upgrade (owners); progress comes as Upgrade messages', body: FirmwareUpgradeRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        await s.commands.firmwareUpgrade(user, req.body.token, req.body.fw);
        return { status: 'OK' as const };
      },
    );
    app.post(
      '/devices/relay',
      { schema: { tags: ['devices'], summary: 'Open or close the load relay of a disconnector (owners)', body: RelayRequest, response: { 200: RelayResponse, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: { state: await s.commands.relay(user, req.body.token, req.body.state) } };
      },
    );
  };
}

import {
  IntegrationDeviceParams,
  IntegrationDevicesResponse,
  IntegrationEnergyQuery,
  IntegrationProfileQuery,
  IntegrationSeriesResponse,
  IntegrationTokenCreateRequest,
  IntegrationTokenCreateResponse,
  IntegrationTokenListRequest,
  IntegrationTokenListResponse,
  IntegrationTokenRevokeRequest,
  IntegrationTokenRevokeResponse,
} from './integration';
import type { RouteDef } from './routes';

/**
 * Integration tokens (managed with the session) and the integration API under /v1 of the read
 * door, which takes `Authorization: Bearer <token>` instead of a session.
 */
export const integrationRoutes = {
  integrationTokenList: {
    door: 'read',
    method: 'POST',
    path: '/integration/tokens',
    session: 'user',
    tag: 'integration',
    summary: "The user's integration tokens, newest first (never their secrets)",
    body: IntegrationTokenListRequest,
    response: IntegrationTokenListResponse,
  },
  integrationTokenCreate: {
    door: 'write',
    method: 'POST',
    path: '/integration/tokens',
    session: 'user',
    tag: 'integration',
    summary: 'Create a read-only integration token; its secret is answered this once only',
    body: IntegrationTokenCreateRequest,
    response: IntegrationTokenCreateResponse,
  },
  integrationTokenRevoke: {
    door: 'write',
    method: 'DELETE',
    path: '/integration/tokens',
    session: 'user',
    tag: 'integration',
    summary: 'Revoke an integration token; it stops working at once',
    body: IntegrationTokenRevokeRequest,
    response: IntegrationTokenRevokeResponse,
  },
  integrationDevices: {
    door: 'read',
    method: 'GET',
    path: '/v1/devices',
    session: 'bearer',
    tag: 'integration API',
    summary: 'Devices the bearer token may read',
    body: null,
    response: IntegrationDevicesResponse,
  },
  integrationProfile: {
    door: 'read',
    method: 'GET',
    path: '/v1/devices/:mac/profile',
    session: 'bearer',
    tag: 'integration API',
    summary:
      'Profile rows of a device (minute, hour or day by span) as JSON, or CSV with ?format=csv or Accept: text/csv',
    body: null,
    response: IntegrationSeriesResponse,
    params: IntegrationDeviceParams,
    query: IntegrationProfileQuery,
  },
  integrationEnergy: {
    door: 'read',
    method: 'GET',
    path: '/v1/devices/:mac/energy',
    session: 'bearer',
    tag: 'integration API',
    summary:
      'Energy per interval (15MIN, HOUR, DAY, MONTH) of a device as JSON, or CSV with ?format=csv or Accept: text/csv',
    body: null,
    response: IntegrationSeriesResponse,
    params: IntegrationDeviceParams,
    query: IntegrationEnergyQuery,
  },
} as const satisfies Record<string, RouteDef>;

import { RelayHistoryRequest, RelayHistoryResponse } from './relay';
import type { RouteDef } from './routes';

/** Relay control of disconnectors (type 2); the switching itself is `relay` in the device routes. */
export const relayRoutes = {
  relayHistory: {
    door: 'read',
    method: 'POST',
    path: '/devices/relay/history',
    session: 'cookie',
    tag: 'devices',
    summary:
      'State of a disconnector relay, its switchings (who, when, why) and its DISCONNECTOR notifications; owners only',
    body: RelayHistoryRequest,
    response: RelayHistoryResponse,
  },
} as const satisfies Record<string, RouteDef>;

import {
  AuthType,
  DEMO_LOGIN,
  INTEGRATION_TOKEN_LENGTH,
  INTEGRATION_TOKEN_PREFIX,
  INTEGRATION_TOKENS_MAX,
  unixMs,
  unixSec,
  type IntegrationTokenCreateRequest,
  type IntegrationTokenEntry,
} from '@meterportal/protocol';
import type { Session } from '../auth/auth.service';
import { randomToken, sha256Hex } from '../auth/crypto';
import type { UsersRepository } from '../auth/users.repository';
import type { Clock } from '../clock';
import type { DevicesService } from '../devices/devices.service';
import { Forbidden, InvalidRequest, NotFound, Unauthenticated } from '../http/errors';
import type { IntegrationRepository, IntegrationTokenWithDevices } from './integration.repository';

/** Longest validity a token may be given, seconds (ten years). */
const MAX_VALIDITY_SEC = 10 * 366 * 86400;

/** The caller of the integration API: a token and the user it reads for. */
export interface TokenCaller {
  tokenId: number;
  userId: number;
  login: string;
  /** Device ids the token is limited to; null when it covers every device assigned to the user. */
  deviceIds: ReadonlySet<number> | null;
}

function toEntry(t: IntegrationTokenWithDevices): IntegrationTokenEntry {
  return {
    id: t.id,
    name: t.name,
    devices: t.all_devices === 1 ? null : t.macs,
    createdAt: unixMs(t.created_at_ms),
    lastUsedAt: t.last_used_at_ms === null ? null : unixMs(t.last_used_at_ms),
    expiresAt: t.expires_at_sec === null ? null : unixSec(t.expires_at_sec),
  };
}

const BEARER = /^Bearer +(\S+)$/i;

/** Integration tokens: made, listed and revoked by their user; checked on every API call. */
export function integrationTokensService(deps: {
  repo: IntegrationRepository;
  users: UsersRepository;
  devices: DevicesService;
  clock: Clock;
}) {
  const { repo, users, devices, clock } = deps;

  return {
    async list(session: Session): Promise<IntegrationTokenEntry[]> {
      return (await repo.listForUser(session.userId)).map(toEntry);
    },

    /** Makes a token; the secret is answered here only, and only its SHA-256 is kept. */
    async create(
      session: Session,
      req: IntegrationTokenCreateRequest,
    ): Promise<IntegrationTokenEntry & { secret: string }> {
      // The public demo account is shared by everyone who tries the portal.
      if (session.authType === AuthType.Local && session.login === DEMO_LOGIN)
        throw new Forbidden('The demo account cannot create integration tokens');
      const nowMs = clock.nowMs();
      const nowSec = Math.floor(nowMs / 1000);
      const expiresAt = req.expiresAt ?? null;
      if (expiresAt !== null && (expiresAt <= nowSec || expiresAt > nowSec + MAX_VALIDITY_SEC))
        throw new InvalidRequest(
          'Invalid request at expiresAt: must be in the future, at most ten years ahead',
        );
      let deviceIds: number[] = [];
      if (req.devices) {
        const mine = new Map((await devices.assigned(session.userId)).map((d) => [d.mac, d.id]));
        const foreign = req.devices.find((m) => !mine.has(m));
        if (foreign)
          throw new InvalidRequest(`Invalid request at devices: device ${foreign} is not among your devices`);
        deviceIds = [...new Set(req.devices.map((m) => mine.get(m)!))];
      }
      if ((await repo.countForUser(session.userId)) >= INTEGRATION_TOKENS_MAX)
        throw new InvalidRequest(
          `Invalid request: at most ${INTEGRATION_TOKENS_MAX} integration tokens; revoke one first`,
        );
      const secret = INTEGRATION_TOKEN_PREFIX + randomToken();
      const id = await repo.create(
        {
          user_id: session.userId,
          name: req.name,
          token_hash: sha256Hex(secret),
          all_devices: req.devices ? 0 : 1,
          created_at_ms: nowMs,
          expires_at_sec: expiresAt,
        },
        deviceIds,
      );
      const created = (await repo.listForUser(session.userId)).find((t) => t.id === id)!;
      return { ...toEntry(created), secret };
    },

    async revoke(session: Session, id: number): Promise<void> {
      if (!(await repo.delete(session.userId, id))) throw new NotFound('Token not found');
    },

    /**
     * The caller named by an `Authorization: Bearer` header: a token that exists (not revoked) and
     * has not expired. A session token or cookie is no integration token.
     */
    async authenticate(authorization: string | undefined): Promise<TokenCaller> {
      const secret = BEARER.exec(authorization ?? '')?.[1];
      if (!secret?.startsWith(INTEGRATION_TOKEN_PREFIX) || secret.length !== INTEGRATION_TOKEN_LENGTH)
        throw new Unauthenticated('Send Authorization: Bearer <integration token>');
      const token = await repo.findByHash(sha256Hex(secret));
      if (!token) throw new Unauthenticated('Integration token not valid or revoked');
      if (token.expires_at_sec !== null && token.expires_at_sec * 1000 <= clock.nowMs())
        throw new Unauthenticated('Integration token expired');
      const user = await users.findById(token.user_id);
      if (!user) throw new Unauthenticated('Integration token not valid or revoked');
      return {
        tokenId: token.id,
        userId: user.id,
        login: user.login,
        deviceIds: token.all_devices === 1 ? null : await repo.deviceIds(token.id),
      };
    },

    /** Records an answered call as the token's last use. */
    touch(caller: TokenCaller): Promise<void> {
      return repo.touch(caller.tokenId, clock.nowMs());
    },
  };
}
/** Integration tokens. */
export type IntegrationTokensService = ReturnType<typeof integrationTokensService>;

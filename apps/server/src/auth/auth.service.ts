import { unixMs } from '@meterportal/protocol';
import {
  AuthType,
  DEMO_LOGIN,
  LOCAL_SESSION_SEC,
  loginKey,
  type ApplicationName,
  type AuthUser,
  type DeviceListEntry,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService } from '../devices/devices.service';
import {
  Forbidden,
  IdentityProviderLoginFailed,
  InvalidRequest,
  LoginIncorrect,
  TooManyAttempts,
  Unauthenticated,
} from '../http/errors';
import { hashPasswordDigest, randomToken, sha256Hex, verifyPasswordDigest } from './crypto';
import { isUniqueViolation } from '../db/unique-violation';
import type { OidcIdentity, OidcTokens, OidcVerifier } from './oidc';
import type { SessionsRepository } from './sessions.repository';
import { attemptKeys, signInThrottle } from './throttle';
import type { UserRow, UsersRepository } from './users.repository';

/** An authenticated request's user. */
export interface Session {
  userId: number;
  login: string;
  authType: number;
  applications: ApplicationName[];
  expiresAtMs: number;
  tokenHash: string;
}

/** What a successful sign-in answers. */
export interface SignIn {
  token: string;
  expiresAtMs: number;
  user: AuthUser;
  devices: DeviceListEntry[];
}

/** Sign-in, sessions, password change and application rights. */
export function authService(deps: {
  usersRepo: UsersRepository;
  sessionsRepo: SessionsRepository;
  devices: DevicesService;
  oidc: OidcVerifier;
  clock: Clock;
  /** False when the installation runs without the public demo account (DEMO=false). */
  demoEnabled: boolean;
  /** False when no identity-provider client id is configured: that sign-in is refused outright. */
  oidcEnabled: boolean;
}) {
  const { usersRepo, sessionsRepo, devices, oidc, clock } = deps;
  const throttle = signInThrottle({ sessionsRepo, clock });
  const isDemo = (u: UserRow) => u.auth_type === AuthType.Local && u.login === DEMO_LOGIN;

  function authUser(u: UserRow, token: string, expiresAtMs: number): AuthUser {
    const local = u.auth_type === AuthType.Local;
    return {
      id: local ? 1 : 2,
      type: local ? 'local' : 'oidc',
      expiration: unixMs(expiresAtMs),
      user: u.login,
      token,
      applications: u.applications,
      ...(local ? {} : { avatar: u.avatar ?? '', user_name: u.user_name ?? u.login }),
    };
  }

  async function startSession(u: UserRow): Promise<SignIn> {
    const token = randomToken();
    const now = clock.nowMs();
    const expiresAtMs = now + LOCAL_SESSION_SEC * 1000;
    await sessionsRepo.create({
      token_hash: sha256Hex(token),
      user_id: u.id,
      auth_type: u.auth_type,
      expires_at_ms: expiresAtMs,
      created_at_ms: now,
    });
    return {
      token,
      expiresAtMs,
      user: authUser(u, token, expiresAtMs),
      devices: await devices.deviceList(u.id),
    };
  }

  /**
   * The account for a first identity-provider sign-in. Two first sign-ins at once (two tabs, or two
   * people whose e-mails fold to the same login) both find nothing and both insert; the one that
   * loses the race takes the account the winner created, or the next free login.
   */
  async function createIdentityProviderUser(id: OidcIdentity, wanted: string): Promise<UserRow> {
    for (let attempt = 0; ; attempt++) {
      let login = wanted;
      for (let n = 2; await usersRepo.findByLoginKey(loginKey(login)); n++) login = `${wanted}-${n}`;
      try {
        return await usersRepo.create({
          login,
          auth_type: AuthType.IdentityProvider,
          password_hash: null,
          issuer: id.issuer,
          subject: id.subject,
          user_name: id.name,
          avatar: id.picture,
          applications: [],
          created_at_ms: clock.nowMs(),
        });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 4) throw err;
        const winner = await usersRepo.findByIssuerSubject(id.issuer, id.subject);
        if (winner) return winner;
      }
    }
  }

  /** The live session named by a session token (the cookie's value). */
  async function resolveSession(sessionToken: string | undefined): Promise<Session> {
    if (!sessionToken) throw new Unauthenticated();
    const tokenHash = sha256Hex(sessionToken);
    const s = await sessionsRepo.findLive(tokenHash, clock.nowMs());
    if (!s) throw new Unauthenticated();
    const u = await usersRepo.findById(s.user_id);
    if (!u || (!deps.demoEnabled && isDemo(u))) throw new Unauthenticated();
    return {
      userId: u.id,
      login: u.login,
      authType: u.auth_type,
      applications: u.applications,
      expiresAtMs: s.expires_at_ms,
      tokenHash,
    };
  }

  return {
    resolveSession,

    async loginLocal(login: string, digest: string, address: string): Promise<SignIn> {
      const keys = attemptKeys(loginKey(login), address);
      const waitSec = await throttle.waitSec(keys);
      if (waitSec > 0) throw new TooManyAttempts(waitSec);
      const u = await usersRepo.findByLogin(login);
      const local = u?.auth_type === AuthType.Local && (deps.demoEnabled || !isDemo(u)) ? u : undefined;
      const ok = await verifyPasswordDigest(local?.password_hash ?? null, digest);
      if (!local || !ok) {
        await throttle.failed([keys.address, keys.account, keys.pair]);
        throw new LoginIncorrect();
      }
      await throttle.succeeded(keys);
      return startSession(local);
    },

    /** Answers the current device list for a live session, keeping the same token. */
    async refresh(s: Session, token: string): Promise<SignIn> {
      const u = await usersRepo.findById(s.userId);
      if (!u) throw new Unauthenticated();
      return {
        token,
        expiresAtMs: s.expiresAtMs,
        user: authUser(u, token, s.expiresAtMs),
        devices: await devices.deviceList(u.id),
      };
    },

    async loginOidc(tokens: OidcTokens, address: string): Promise<SignIn> {
      if (!deps.oidcEnabled)
        throw new IdentityProviderLoginFailed('Identity-provider sign-in is not configured');
      const addressKey = attemptKeys('', address).address;
      const waitSec = await throttle.waitSec({ address: addressKey });
      if (waitSec > 0) throw new TooManyAttempts(waitSec);
      const id = await oidc.verify(tokens);
      if (!id) {
        await throttle.failed([addressKey]);
        throw new IdentityProviderLoginFailed();
      }
      let u = await usersRepo.findByIssuerSubject(id.issuer, id.subject);
      if (u) {
        await usersRepo.updateProfile(u.id, { user_name: id.name, avatar: id.picture });
        u = { ...u, user_name: id.name, avatar: id.picture };
      } else {
        // Only an e-mail the provider has verified may become the login; else one from the subject.
        const wanted = (
          id.email && id.emailVerified ? id.email : `${id.subject}@${new URL(id.issuer).hostname}`
        ).slice(0, 56);
        u = await createIdentityProviderUser(id, wanted);
      }
      return startSession(u);
    },

    async logout(s: Session): Promise<void> {
      await sessionsRepo.delete(s.tokenHash);
    },

    /** The body may name no token (seed 000 section 7); then the session cookie identifies the user. */
    async changePassword(
      s: Session,
      req: { login: string; oldPassword: string; newPassword: string },
    ): Promise<void> {
      if (
        s.authType !== AuthType.Local ||
        s.login === DEMO_LOGIN ||
        loginKey(req.login) !== loginKey(s.login)
      ) {
        throw new Forbidden('Password change is not allowed for this account');
      }
      if (req.oldPassword === req.newPassword) throw new InvalidRequest('Passwords must be different');
      const u = await usersRepo.findById(s.userId);
      if (!u || !(await verifyPasswordDigest(u.password_hash, req.oldPassword))) throw new LoginIncorrect();
      await usersRepo.updatePassword(u.id, await hashPasswordDigest(req.newPassword));
      // Every session of the user ends, this one included: sign in again with the new password.
      await sessionsRepo.deleteForUser(u.id);
    },

    checkApplication(s: Session, application: string): void {
      if (!s.applications.some((a) => a === application)) throw new Forbidden('Application not granted');
    },
  };
}
/** Sign-in, sessions, password change and application rights. */
export type AuthService = ReturnType<typeof authService>;

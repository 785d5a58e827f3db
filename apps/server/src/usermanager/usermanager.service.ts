import { unixSec } from '@meterportal/protocol';
import {
  Application,
  AuthType,
  DEMO_LOGIN,
  MAX_DEVICES_PER_USER,
  MIXED_SCRIPT_LOGIN_MESSAGE,
  OWNER_LIFETIME_SEC,
  loginKey,
  mixesLookalikeScripts,
  type ManagedUser,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Session } from '../auth/auth.service';
import type { UsersRepository } from '../auth/users.repository';
import type { DevicesRepository } from '../devices/devices.repository';
import type { SessionsRepository } from '../auth/sessions.repository';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '../http/errors';
import { hashPasswordDigest } from '../auth/crypto';
import type { UserManagerRepository } from './usermanager.repository';

/** Accounts and device access, for holders of USER_MANAGER only (enforced here, whatever the screen shows). */
export function userManagerService(deps: {
  users: UsersRepository;
  devices: DevicesRepository;
  sessions: SessionsRepository;
  repo: UserManagerRepository;
  clock: Clock;
}) {
  const { users, devices, sessions, repo, clock } = deps;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  function requireManager(s: Session): Session {
    if (!s.applications.includes(Application.UserManager)) throw new Forbidden('User manager right required');
    return s;
  }
  async function userByLogin(login: string) {
    const u = await users.findByLogin(login);
    if (!u) throw new NotFound('User not found');
    return u;
  }

  return {
    async listUsers(user: Session): Promise<ManagedUser[]> {
      requireManager(user);
      const [rows, assignments] = await Promise.all([repo.listUsers(), repo.listAssignments(nowSec())]);
      return rows.map((u) => {
        const mine = assignments.filter((a) => a.user_id === u.id);
        return {
          login: u.login,
          devices: mine.map((a) => a.mac),
          assignments: mine.map((a) => ({
            device: a.mac,
            title: a.title,
            lifeTime: unixSec(a.life_time_sec),
            owner: a.owner === 1,
          })),
          authType: u.auth_type,
          applications: u.applications,
        };
      });
    },

    async listDevices(user: Session) {
      requireManager(user);
      return (await devices.listAll()).map((d) => ({ MAC: d.mac, title: d.title, type: d.type }));
    },

    async addUser(user: Session, login: string, digest: string): Promise<void> {
      requireManager(user);
      if (mixesLookalikeScripts(login)) throw new InvalidRequest(MIXED_SCRIPT_LOGIN_MESSAGE);
      // Logins that differ only in case or Unicode form name the same account.
      if (await users.findByLoginKey(loginKey(login))) throw new Conflict('Object already exist');
      await users.create({
        login,
        auth_type: AuthType.Local,
        password_hash: await hashPasswordDigest(digest),
        issuer: null,
        subject: null,
        user_name: null,
        avatar: null,
        applications: [],
        created_at_ms: clock.nowMs(),
      });
    },

    async setPassword(user: Session, login: string, digest: string): Promise<void> {
      requireManager(user);
      const u = await userByLogin(login);
      if (u.auth_type !== AuthType.Local || u.login === DEMO_LOGIN) {
        throw new Forbidden('Password change is not allowed for this account');
      }
      await users.updatePassword(u.id, await hashPasswordDigest(digest));
      await sessions.deleteForUser(u.id);
    },

    async removeUser(user: Session, login: string): Promise<void> {
      const s = requireManager(user);
      const u = await userByLogin(login);
      if (u.id === s.userId) throw new Forbidden('You cannot delete yourself');
      if (
        u.applications.includes(Application.UserManager) &&
        (await repo.countManagersOtherThan(u.id)) === 0
      ) {
        throw new Forbidden('The last user manager cannot be deleted');
      }
      await repo.deleteUser(u.id);
    },

    async assign(user: Session, login: string, mac: string, lifeTime: number): Promise<void> {
      requireManager(user);
      const u = await userByLogin(login);
      const d = await devices.findByMac(mac);
      if (!d) throw new NotFound('Device not found');
      if (lifeTime <= nowSec())
        throw new InvalidRequest('Invalid request at lifeTime: must be in the future');
      const already = await devices.findAssigned(u.id, mac, nowSec());
      if (!already && (await repo.countActiveAssignments(u.id, nowSec())) >= MAX_DEVICES_PER_USER) {
        throw new InvalidRequest(`A user may hold at most ${MAX_DEVICES_PER_USER} devices`);
      }
      await devices.assign({
        userId: u.id,
        deviceId: d.id,
        owner: lifeTime === OWNER_LIFETIME_SEC,
        lifeTimeSec: lifeTime,
        nowMs: clock.nowMs(),
      });
    },

    async unassign(user: Session, login: string, mac: string): Promise<void> {
      requireManager(user);
      const u = await userByLogin(login);
      const d = await devices.findByMac(mac);
      if (!d) throw new NotFound('Device not found');
      await devices.unassign(u.id, d.id);
    },
  };
}
/** Accounts and device access for user managers. */
export type UserManagerService = ReturnType<typeof userManagerService>;

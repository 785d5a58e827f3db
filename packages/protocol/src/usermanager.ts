import { z } from 'zod';
import { UnixSec } from './units';
import { OWNER_LIFETIME_SEC } from './constants';
import { Login, Mac, PasswordDigest, UserToken, okWith } from './common';

/** A login a user manager may create: at least 3 characters (seed 001 section 5). */
export const NewLogin = Login.min(3, 'must be at least 3 characters');

/** Body of POST /applications/usermanager/user/list and device/list. */
export const UserManagerListRequest = z.object({ user_token: UserToken });

/** One device assignment as the user manager sees it. */
export const ManagedAssignment = z.object({
  device: z.string(),
  title: z.string(),
  /** Expiry, unix seconds; 32535215940 means owner. */
  lifeTime: UnixSec,
  owner: z.boolean(),
});

/** One user of the user manager's list. */
export const ManagedUser = z.object({
  login: z.string(),
  /** MACs of the devices assigned and not expired. */
  devices: z.array(z.string()),
  assignments: z.array(ManagedAssignment),
  /** 1 local, 2 identity provider. */
  authType: z.number().int(),
  applications: z.array(z.string()),
});
/** One user of the user manager's list. */
export type ManagedUser = z.infer<typeof ManagedUser>;
/** Answer of user/list. */
export const UserListResponse = okWith(z.array(ManagedUser));

/** One device of the installation, for assignment. */
export const ManagedDevice = z.object({ MAC: z.string(), title: z.string(), type: z.number().int() });
/** Answer of device/list. */
export const DeviceListResponse = okWith(z.array(ManagedDevice));

/** Body of POST (create) and PUT (change password) /applications/usermanager/user/add. */
export const UserAddRequest = z.object({ user_token: UserToken, login: NewLogin, password: PasswordDigest });
/** Body of DELETE /applications/usermanager/user/remove. */
export const UserRemoveRequest = z.object({ user_token: UserToken, login: Login });

/** Body of POST /applications/usermanager/assign. */
export const AssignRequest = z.object({
  user_token: UserToken,
  login: Login,
  device: Mac,
  /** Expiry in unix seconds; OWNER_LIFETIME_SEC makes the user an owner. */
  lifeTime: UnixSec.refine(
    (s) => s > 0 && s <= OWNER_LIFETIME_SEC,
    `must be between 1 and ${OWNER_LIFETIME_SEC}`,
  ),
});
/** Body of DELETE /applications/usermanager/assign. */
export const UnassignByManagerRequest = z.object({ user_token: UserToken, login: Login, device: Mac });

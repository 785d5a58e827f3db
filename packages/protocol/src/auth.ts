import { z } from 'zod';
import { UnixMs } from './units';
import { APPLICATIONS } from './constants';
import { Login, PasswordDigest, UserToken, okWith } from './common';
import { DeviceListEntry } from './devices';

/** Local sign-in with login and password digest, or a device-list refresh with a token. */
export const LocalAuthRequest = z.union([
  z.object({ login: Login, password: PasswordDigest }),
  z.object({ token: UserToken }),
]);
/** Body of POST /auth/local. */
export type LocalAuthRequest = z.infer<typeof LocalAuthRequest>;

/** Identity-provider sign-in: the provider's access token and the ID token of the same answer. */
export const GoogleAuthRequest = z.object({
  /** The provider's access token (seed 000 section 7). */
  token: z.string().min(8).max(4096),
  /** The provider's ID token, a signed JWT whose audience must be this portal's client id. */
  id_token: z.string().min(16).max(8192).optional(),
});
/** Body of POST /auth/google. */
export type GoogleAuthRequest = z.infer<typeof GoogleAuthRequest>;

/** The signed-in user as every sign-in answer carries it (seed 000 section 3, Auth record). */
export const AuthUser = z.object({
  /** Sign-in type: 1 local, 2 identity provider. */
  id: z.union([z.literal(1), z.literal(2)]),
  /** 'local' or 'oidc'. */
  type: z.enum(['local', 'oidc']),
  /** Session expiry, unix milliseconds. */
  expiration: UnixMs.refine(Number.isInteger, 'whole milliseconds'),
  /** Login name. */
  user: z.string(),
  /** Session token; send it back as token / user_token. */
  token: z.string(),
  /** Application rights. */
  applications: z.array(z.enum(APPLICATIONS)),
  /** Picture URL (identity-provider users only). */
  avatar: z.string().optional(),
  /** Display name (identity-provider users only). */
  user_name: z.string().optional(),
});
/** The signed-in user. */
export type AuthUser = z.infer<typeof AuthUser>;

/** Answer of both sign-in calls: the device list and the user. */
export const AuthResponse = okWith(z.array(DeviceListEntry)).extend({ user: AuthUser });
/** Answer of POST /auth/local and /auth/google. */
export type AuthResponse = z.infer<typeof AuthResponse>;

/** Body of POST /auth/local/change-password. */
export const ChangePasswordRequest = z.object({
  /** Optional; when sent it must be the session token. */
  token: UserToken.optional(),
  login: Login,
  oldPassword: PasswordDigest,
  newPassword: PasswordDigest,
});
/** Body of POST /auth/local/change-password. */
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** Body of POST /auth/logout. */
export const LogoutRequest = z.object({ token: UserToken });

/** Body of POST /applications/access. */
export const ApplicationAccessRequest = z.object({
  user_token: UserToken,
  application: z.string().min(1).max(64),
});
/** Body of POST /applications/access. */
export type ApplicationAccessRequest = z.infer<typeof ApplicationAccessRequest>;

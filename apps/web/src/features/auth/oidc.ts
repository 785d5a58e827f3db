import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { PortalConfig } from '../../api/config';
import { REDIRECT_PATH, SILENT_CALLBACK_PATH } from './oidcPaths';

/**
 * OpenID Connect code flow with PKCE against the configured issuer. This module is only imported
 * when the identity provider is used, so the library stays out of the sign-in page's first load.
 */

let manager: UserManager | undefined;

export function isIdpConfigured(config: PortalConfig): boolean {
  return config.oidc.issuer !== '' && config.oidc.clientId !== '';
}

function userManager(config: PortalConfig): UserManager {
  if (!manager) {
    const origin = window.location.origin;
    manager = new UserManager({
      authority: config.oidc.issuer,
      client_id: config.oidc.clientId,
      redirect_uri: origin + REDIRECT_PATH,
      silent_redirect_uri: origin + SILENT_CALLBACK_PATH,
      response_type: 'code',
      scope: 'openid profile email',
      // The portal times renewals itself (seed lead, fallback and retry), so the library must not.
      automaticSilentRenew: false,
      userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    });
  }
  return manager;
}

/** Leaves for the provider's sign-in page. */
export async function startIdpLogin(config: PortalConfig): Promise<void> {
  await userManager(config).signinRedirect();
}

export interface IdpToken {
  accessToken: string;
  /** The ID token of the same answer; the portal checks its signature and audience. */
  idToken: string | undefined;
  /** Provider token expiry, unix ms (undefined when the provider gave none). */
  expiresAtMs: number | undefined;
}

const toToken = (u: {
  access_token: string;
  id_token?: string | undefined;
  expires_at?: number | undefined;
}): IdpToken => ({
  accessToken: u.access_token,
  idToken: u.id_token,
  expiresAtMs: u.expires_at === undefined ? undefined : u.expires_at * 1000,
});

/** Finishes the code flow the provider's redirect brought back, giving its token. */
export async function completeIdpLogin(config: PortalConfig): Promise<IdpToken> {
  const user = await userManager(config).signinRedirectCallback();
  return toToken(user);
}

/** Renews the provider token in a hidden frame. */
export async function renewIdpToken(config: PortalConfig): Promise<IdpToken> {
  const user = await userManager(config).signinSilent();
  if (!user) throw new Error('renewal gave no user');
  return toToken(user);
}

export async function completeSilentRenewal(config: PortalConfig): Promise<void> {
  await userManager(config).signinSilentCallback();
}

export async function forgetIdpUser(config: PortalConfig): Promise<void> {
  if (isIdpConfigured(config)) await userManager(config).removeUser();
}

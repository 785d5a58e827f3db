import crypto from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { Clock } from '../clock';

/** Who the identity provider says the tokens belong to. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  name: string | null;
  email: string | null;
  /** True only when the provider says it checked that the e-mail belongs to the user. */
  emailVerified: boolean;
  picture: string | null;
}

/** The tokens a browser brings back from the provider's code flow. */
export interface OidcTokens {
  accessToken: string;
  /** The ID token; it alone proves the sign-in was made for this portal's client. */
  idToken?: string | undefined;
}

/** Checks identity-provider tokens. */
export interface OidcVerifier {
  /** The identity, or null when the tokens are not valid sign-in tokens for this portal. */
  verify(tokens: OidcTokens): Promise<OidcIdentity | null>;
}

const Discovery = z.object({
  issuer: z.string(),
  jwks_uri: z.string().url(),
  userinfo_endpoint: z.string().url(),
  introspection_endpoint: z.string().url().optional(),
});
const Introspection = z.object({
  active: z.boolean(),
  sub: z.string().min(1).max(255).optional(),
  client_id: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  exp: z.number().optional(),
});
const UserInfo = z.object({
  sub: z.string().min(1).max(255),
  name: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
  email_verified: z.boolean().optional(),
  picture: z.string().max(1000).optional(),
});

/** The `at_hash` of an access token for a signature algorithm of the SHA-2 family. */
function accessTokenHash(accessToken: string, alg: string): string | null {
  const bits = /^(?:RS|PS|ES|HS)(256|384|512)$/.exec(alg)?.[1];
  if (!bits) return null;
  const digest = crypto.createHash(`sha${bits}`).update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/**
 * Verifies an OpenID Connect sign-in: the ID token's signature against the issuer's published
 * keys (JWKS), its issuer, its audience (exactly this portal's client id, also as `azp`), its
 * expiry by the injected clock, and its `at_hash` when present; then the provider's userinfo
 * answer for the access token, which must name the same subject. Without an ID token, an access
 * token is accepted only when the issuer's introspection endpoint (RFC 7662, asked as this
 * portal's public client) says it is active and was issued to this client id. A token the same
 * provider issued to another application is refused either way. The issuer's metadata and keys
 * are fetched once and kept (keys are fetched again when an unknown key id appears).
 */
export function oidcVerifier(opts: {
  issuer: string;
  clientId: string;
  clock: Clock;
  timeoutMs?: number;
}): OidcVerifier {
  const timeoutMs = opts.timeoutMs ?? 5000;
  let discovery:
    Promise<{ meta: z.infer<typeof Discovery>; jwks: ReturnType<typeof createRemoteJWKSet> }> | undefined;
  const discover = async () => {
    const res = await fetch(`${opts.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`issuer metadata: HTTP ${res.status}`);
    const meta = Discovery.parse(await res.json());
    return { meta, jwks: createRemoteJWKSet(new URL(meta.jwks_uri), { timeoutDuration: timeoutMs }) };
  };

  async function idTokenClaims(idToken: string, accessToken: string): Promise<JWTPayload | null> {
    discovery ??= discover();
    const { meta, jwks } = await discovery;
    try {
      const { payload, protectedHeader } = await jwtVerify(idToken, jwks, {
        issuer: meta.issuer,
        audience: opts.clientId,
        currentDate: new Date(opts.clock.nowMs()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (payload.azp !== undefined && payload.azp !== opts.clientId) return null;
      if (
        typeof payload.at_hash === 'string' &&
        payload.at_hash !== accessTokenHash(accessToken, protectedHeader.alg)
      ) {
        return null;
      }
      return payload;
    } catch {
      return null;
    }
  }

  /** The subject of an opaque access token, when the issuer says it was issued to this client. */
  async function introspectedSubject(accessToken: string): Promise<string | null> {
    discovery ??= discover();
    const { meta } = await discovery;
    if (!meta.introspection_endpoint) return null;
    const res = await fetch(meta.introspection_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        token: accessToken,
        token_type_hint: 'access_token',
        client_id: opts.clientId,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const r = Introspection.safeParse(await res.json());
    if (!r.success || !r.data.active || !r.data.sub) return null;
    const audience = [r.data.aud ?? []].flat();
    const issuedHere =
      r.data.client_id !== undefined ? r.data.client_id === opts.clientId : audience.includes(opts.clientId);
    if (!issuedHere) return null;
    if (r.data.exp !== undefined && r.data.exp * 1000 <= opts.clock.nowMs()) return null;
    return r.data.sub;
  }

  return {
    async verify({ accessToken, idToken }) {
      if (!opts.clientId) return null;
      try {
        const claims: JWTPayload | null = idToken
          ? await idTokenClaims(idToken, accessToken)
          : await introspectedSubject(accessToken).then((sub) => (sub ? { sub } : null));
        if (!claims?.sub) return null;
        const { meta } = await discovery!;
        const res = await fetch(meta.userinfo_endpoint, {
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return null;
        const info = UserInfo.safeParse(await res.json());
        if (!info.success || info.data.sub !== claims.sub) return null;
        const email = info.data.email ?? (typeof claims.email === 'string' ? claims.email : undefined);
        const emailVerified = info.data.email_verified ?? claims.email_verified === true;
        return {
          issuer: meta.issuer,
          subject: claims.sub,
          name: info.data.name ?? null,
          email: email ?? null,
          emailVerified: email !== undefined && emailVerified === true,
          picture: info.data.picture ?? null,
        };
      } catch {
        // A failed discovery is tried again on the next sign-in rather than kept.
        discovery = undefined;
        return null;
      }
    },
  };
}

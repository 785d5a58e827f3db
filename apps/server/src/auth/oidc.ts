import { z } from 'zod';

/** Who the identity provider says the token belongs to. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  name: string | null;
  email: string | null;
  picture: string | null;
}

/** Checks an identity-provider access token. */
export interface OidcVerifier {
  /** The identity, or null when the provider does not accept the token. */
  verify(accessToken: string): Promise<OidcIdentity | null>;
}

const Discovery = z.object({ issuer: z.string(), userinfo_endpoint: z.string().url() });
const UserInfo = z.object({
  sub: z.string().min(1).max(255),
  name: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
  picture: z.string().max(1000).optional(),
});

/**
 * Verifies access tokens by asking the issuer's userinfo endpoint, which works for opaque tokens
 * (Google's) and JWTs alike; the issuer's metadata is fetched once and kept.
 */
export function userInfoVerifier(issuerUrl: string, timeoutMs = 5000): OidcVerifier {
  let discovery: Promise<z.infer<typeof Discovery>> | undefined;
  const discover = async () => {
    const res = await fetch(`${issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`issuer metadata: HTTP ${res.status}`);
    return Discovery.parse(await res.json());
  };
  return {
    async verify(accessToken) {
      try {
        discovery ??= discover();
        const meta = await discovery;
        const res = await fetch(meta.userinfo_endpoint, {
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return null;
        const info = UserInfo.safeParse(await res.json());
        if (!info.success) return null;
        return {
          issuer: meta.issuer,
          subject: info.data.sub,
          name: info.data.name ?? null,
          email: info.data.email ?? null,
          picture: info.data.picture ?? null,
        };
      } catch {
        // A failed discovery is retried on the next sign-in rather than cached forever.
        discovery = undefined;
        return null;
      }
    },
  };
}

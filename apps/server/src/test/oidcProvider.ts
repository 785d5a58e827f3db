import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account the test provider knows. */
export interface TestAccount {
  email: string;
  name: string;
  picture?: string;
  /** Whether the provider vouches for the e-mail; true unless told otherwise. */
  email_verified?: boolean;
}

/** Tokens as the provider's token endpoint answers them. */
export interface TestTokens {
  accessToken: string;
  idToken: string;
}

/** A real OpenID Connect provider on a loopback port, for sign-in tests. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  /** A second registered client: another application using the same provider. */
  otherClientId: string;
  /** Issues an access token and ID token for an account, as the token endpoint would to the client. */
  issueTokens(subject: string, opts?: { clientId?: string }): Promise<TestTokens>;
  close(): Promise<void>;
}

/** Starts oidc-provider with two public clients (code + PKCE) and the given accounts. */
export async function startOidcProvider(
  accounts: Record<string, TestAccount>,
  redirectUris: string[] = ['http://localhost:8080/login'],
): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'meter-portal';
  const otherClientId = 'another-application';
  const provider = new Provider(issuer, {
    clients: [clientId, otherClientId].map((id) => ({
      client_id: id,
      token_endpoint_auth_method: 'none' as const,
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code' as const],
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    features: { introspection: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const a = accounts[sub];
      return a ? { accountId: sub, claims: () => ({ sub, email_verified: true, ...a }) } : undefined;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    void handle(req, res);
  });
  return {
    issuer,
    clientId,
    otherClientId,
    async issueTokens(subject, opts = {}) {
      const forClient = opts.clientId ?? clientId;
      const client = await provider.Client.find(forClient);
      if (!client) throw new Error('client missing');
      const grant = new provider.Grant({ accountId: subject, clientId: forClient });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      const at = new provider.AccessToken({
        accountId: subject,
        client,
        grantId,
        gty: 'authorization_code',
        scope: 'openid email profile',
      });
      const accessToken = await at.save();
      const idToken = new provider.IdToken({ sub: subject }, { client });
      idToken.set('sub', subject);
      idToken.set('at_hash', accessToken);
      return { accessToken, idToken: await idToken.issue({ use: 'idtoken' }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account the test provider knows. */
export interface TestAccount {
  email: string;
  name: string;
  picture?: string;
}

/** A real OpenID Connect provider on a loopback port, for sign-in tests. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  /** Issues an access token for an account, as the provider's token endpoint would. */
  issueAccessToken(subject: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts oidc-provider with one public client (code + PKCE) and the given accounts. */
export async function startOidcProvider(
  accounts: Record<string, TestAccount>,
  redirectUris: string[] = ['http://localhost:8080/login'],
): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'meter-portal';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'picture'] },
    findAccount: (_ctx, sub) => {
      const a = accounts[sub];
      return a ? { accountId: sub, claims: () => ({ sub, ...a }) } : undefined;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    void handle(req, res);
  });
  return {
    issuer,
    clientId,
    async issueAccessToken(subject) {
      const client = await provider.Client.find(clientId);
      if (!client) throw new Error('client missing');
      const grant = new provider.Grant({ accountId: subject, clientId });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      const at = new provider.AccessToken({
        accountId: subject,
        client,
        grantId,
        gty: 'authorization_code',
        scope: 'openid email profile',
      });
      return at.save();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

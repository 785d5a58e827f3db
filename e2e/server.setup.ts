import type { TestProject } from 'vitest/node';
import { startOidcProvider } from '../apps/server/src/test/oidcProvider';
import { prepareSmtpServer } from '../apps/server/src/test/smtpServer';
import { startWebexStandIn } from '../apps/server/src/test/webexStandIn';
import { freePort, startPortal } from './portal';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    /** Base of the Webex stand-in the portal posts to, and its bot token. */
    webexUrl: string;
    webexToken: string;
    /** The local OpenID provider the portal trusts, and an account it knows. */
    oidcIssuer: string;
    oidcAccount: { login: string; email: string; name: string };
  }
}

/** The provider's account used by the sign-in test (its login form takes any password). */
const OIDC_ACCOUNT = { login: 'alice', email: 'alice@example.com', name: 'Alice Engineer' };

/** Webex spaces the stand-in offers. */
const WEBEX_SPACES = [{ id: 'space-ops', title: 'Operations' }];

/**
 * One portal with its simulated demo fleet for the whole run, a local stand-in for Webex that
 * records what it receives, a real SMTP server for e-mail notifications, and a real local OpenID
 * provider the portal trusts.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const webex = await startWebexStandIn(WEBEX_SPACES);
  const smtp = await prepareSmtpServer();
  await smtp.start();
  const oidc = await startOidcProvider(
    { [OIDC_ACCOUNT.login]: { email: OIDC_ACCOUNT.email, name: OIDC_ACCOUNT.name } },
    [`${baseUrl}/login`, `${baseUrl}/login/silent`],
  );
  const portal = await startPortal(
    {
      WEBEX_BASE_URL: webex.baseUrl,
      WEBEX_BOT_TOKEN: webex.token,
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: oidc.clientId,
      SMTP_URL: smtp.url,
      // A silent device's upgrade times out within the firmware test.
      FIRMWARE_UPGRADE_TIMEOUT_SEC: '4',
    },
    port,
  );
  project.provide('baseUrl', portal.baseUrl);
  project.provide('adminPassword', portal.adminPassword);
  project.provide('webexUrl', webex.baseUrl);
  project.provide('webexToken', webex.token);
  project.provide('oidcIssuer', oidc.issuer);
  project.provide('oidcAccount', OIDC_ACCOUNT);
  return async () => {
    await portal.stop();
    await webex.close();
    await smtp.stop();
    await oidc.close();
  };
}

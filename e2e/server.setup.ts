import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startWebexStandIn, type WebexStandIn } from '../apps/server/src/test/webexStandIn';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/src/test/oidcProvider';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

let server: ChildProcess | undefined;
let webex: WebexStandIn | undefined;
let oidc: TestOidcProvider | undefined;

/** The provider's account used by the sign-in test (its login form takes any password). */
const OIDC_ACCOUNT = { login: 'alice', email: 'alice@example.com', name: 'Alice Engineer' };

/** Webex spaces the stand-in offers. */
export const WEBEX_SPACES = [{ id: 'space-ops', title: 'Operations' }];
let dataDir = '';

/** Starts the portal as `npm start` does, on free ports and an empty data folder. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '..');
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: build the web app first (npm run build -w apps/web)');
  }
  const port = await freePort();
  const mqttPort = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const adminPassword = 'e2e-admin-password';
  webex = await startWebexStandIn(WEBEX_SPACES);
  const baseUrl = `http://127.0.0.1:${port}`;
  oidc = await startOidcProvider({ [OIDC_ACCOUNT.login]: { email: OIDC_ACCOUNT.email, name: OIDC_ACCOUNT.name } }, [
    `${baseUrl}/login`,
    `${baseUrl}/login/silent`,
  ]);
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      PORTAL_ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      MQTT_URL: '',
      WEBEX_BASE_URL: webex.baseUrl,
      WEBEX_BOT_TOKEN: webex.token,
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: oidc.clientId,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const r = await fetch(`${baseUrl}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('adminPassword', adminPassword);
  project.provide('webexUrl', webex.baseUrl);
  project.provide('webexToken', webex.token);
  project.provide('oidcIssuer', oidc.issuer);
  project.provide('oidcAccount', OIDC_ACCOUNT);
  return async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
    await webex?.close();
    await oidc?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Portal {
  baseUrl: string;
  adminPassword: string;
  /** The embedded broker meters connect to. */
  mqttUrl: string;
  /** The portal's data folder (its SQLite store), for the device command. */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the portal as `npm start` does, on free ports and an empty data folder. `env` adds to
 * the environment, e.g. `DEMO: 'false'` for a portal whose demo devices are never started;
 * `httpPort` fixes the port when something must know the address beforehand.
 */
export async function startPortal(env: Record<string, string> = {}, httpPort?: number): Promise<Portal> {
  const root = path.resolve(import.meta.dirname, '..');
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: build the web app first (npm run build -w apps/web)');
  }
  const port = httpPort ?? (await freePort());
  const mqttPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const adminPassword = 'e2e-admin-password';
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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
      // The analyzer tests a meter every minute, so the browser tests see new tests within minutes.
      DEMO_ACCUTEST_PERIOD_SEC: '60',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
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
  return {
    baseUrl,
    adminPassword,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    dataDir,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

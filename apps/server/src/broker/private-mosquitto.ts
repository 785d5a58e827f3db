// Tests: a private Mosquitto with its dynamic security plugin, next to the installation that
// TEST_MQTT_URL points at, on a free loopback port.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { until } from '../telemetry/testing';

/** The dynamic security plugin of the Mosquitto installation, if it has one. */
export const DYNSEC_PLUGIN = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
  '/usr/local/lib/mosquitto_dynamic_security.so',
].find((p) => fs.existsSync(p));

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

/** A running private broker: its plain URL, its administrator's URL, and stop(). */
export interface PrivateMosquitto {
  url: string;
  adminUrl: string;
  stop(): void;
}

/** Starts Mosquitto with the plugin and an `admin` / `admin-secret` administrator; extra config lines appended. */
export async function startPrivateMosquitto(extra: string[] = []): Promise<PrivateMosquitto> {
  if (!DYNSEC_PLUGIN) throw new Error('the Mosquitto installation has no dynamic security plugin');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynsec-'));
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynsec.json'), 'admin', 'admin-secret'], {
    stdio: 'ignore',
  });
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      `user ${os.userInfo().username}`,
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${path.join(dir, 'dynsec.json')}`,
      'persistence false',
      ...extra,
      '',
    ].join('\n'),
  );
  const broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await until(
    () =>
      new Promise<boolean>((r) =>
        net
          .connect(port, '127.0.0.1')
          .once('connect', function (this: net.Socket) {
            this.end();
            r(true);
          })
          .once('error', () => r(false)),
      ),
  );
  return {
    url: `mqtt://127.0.0.1:${port}`,
    adminUrl: `mqtt://admin:admin-secret@127.0.0.1:${port}`,
    stop() {
      broker.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

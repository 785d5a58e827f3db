// The start-up probe against real Mosquitto brokers: one with its default in-flight limit (20),
// which caps ingest while PUBACKs wait for commits, and one configured as docs/mqtt.md says.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../telemetry/testing';
import { connectExternalBroker } from './external-broker';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

async function mosquitto(lines: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const conf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'probe-mosquitto-')), 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', ...lines, ''].join('\n'),
  );
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.end();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (up) return { url: `mqtt://127.0.0.1:${port}`, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('mosquitto did not start (is it installed?)');
}

describe('in-flight probe of an external broker', () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  it.each([
    ['its default in-flight limit', [], 20],
    ['max_inflight_messages 10', ['max_inflight_messages 10'], 10],
  ])('warns at start when the broker holds back after %s', async (_name, lines, limit) => {
    const broker = await mosquitto(lines);
    stops.push(() => void broker.child.kill());
    const logger = memoryLogger();
    const link = await connectExternalBroker({ url: broker.url, logger, onMessage: () => undefined });
    stops.push(() => link.close());
    const warning = logger.lines.find(
      (l) => l.level === 'warn' && l.msg?.includes('max_inflight_messages 0'),
    );
    expect(warning, JSON.stringify(logger.lines)).toBeDefined();
    expect(warning!.obj).toMatchObject({ inFlight: limit, probeDelivered: limit });
    expect(warning!.msg).toContain(`after about ${limit} unacknowledged messages`);
  });

  it('says nothing when the broker is set up as documented, and start stays quick', async () => {
    const broker = await mosquitto(['max_inflight_messages 0', 'max_queued_messages 1000000']);
    stops.push(() => void broker.child.kill());
    const logger = memoryLogger();
    const started = Date.now();
    const link = await connectExternalBroker({ url: broker.url, logger, onMessage: () => undefined });
    stops.push(() => link.close());
    expect(Date.now() - started).toBeLessThan(4000);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });
});

import type { WebSocket } from 'ws';
import {
  ErrorCode,
  LiveClientMessage,
  type LiveDataMessage,
  type LiveServerMessage,
} from '@meterportal/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthService, Session } from '../auth/auth.service';
import { safeEqual } from '../auth/crypto';
import type { DevicesService } from '../devices/devices.service';
import type { DataEvent, DeviceRuntimeState, LiveBus, LiveEvent } from './bus';
import type { LiveRepository } from './live.repository';

/** Live data is dropped for a socket whose unsent bytes exceed this (the next frame replaces it). */
const MAX_BUFFERED_BYTES = 1 << 20;

interface DeviceSub {
  token: string;
  stop: () => void;
}

interface Connection {
  socket: WebSocket;
  sessionToken: string;
  session: Session;
  state: Map<string, () => void> | null;
  data: Map<string, DeviceSub>;
  notification: Map<string, DeviceSub>;
  queue: Promise<void>;
  closed: boolean;
}

/** The message a browser receives for a device stream event. */
export function dataMessage(mac: string, e: DataEvent): LiveDataMessage {
  // Each topic carries its own data type; the event holds the same pair.
  return { status: 'OK', code: 200, topic: e.topic, mac, data: e.payload } as LiveDataMessage;
}

/**
 * The websocket hub: checks every subscription against the session and the assignment, forwards
 * device events from the bus, and re-checks all of it every recheckMs so that an expired session
 * or a removed assignment stops its streams.
 */
export function createLiveHub(deps: {
  auth: AuthService;
  devices: DevicesService;
  bus: LiveBus;
  repo: LiveRepository;
  recheckMs?: number;
  log?: FastifyBaseLogger;
}) {
  const { auth, devices, bus, repo, log } = deps;
  const connections = new Set<Connection>();

  const send = (c: Connection, m: LiveServerMessage) => {
    if (!c.closed) c.socket.send(JSON.stringify(m));
  };
  function fail(c: Connection, code: number, message: string): void {
    send(c, { status: 'ERROR', code, message });
    drop(c);
    c.closed = true;
    c.socket.close(1008, String(code));
  }
  function drop(c: Connection): void {
    if (c.closed) return;
    c.closed = true;
    for (const stop of c.state?.values() ?? []) stop();
    for (const s of [...c.data.values(), ...c.notification.values()]) s.stop();
    connections.delete(c);
  }

  const stateMessage = (c: Connection, mac: string, s: DeviceRuntimeState): LiveServerMessage => ({
    status: 'OK',
    code: 200,
    topic: 'State',
    mac,
    data: { user: c.session.login, status: s.status, fw: s.fw, connection: s.connection, device: s.device },
  });

  async function syncStates(c: Connection): Promise<void> {
    if (!c.state) return;
    const assigned = await devices.assigned(c.session.userId);
    const macs = new Set(assigned.map((d) => d.mac));
    for (const [mac, stop] of c.state) {
      if (!macs.has(mac)) {
        stop();
        c.state.delete(mac);
      }
    }
    const added = assigned.filter((d) => !c.state!.has(d.mac));
    for (const d of added) {
      c.state.set(
        d.mac,
        bus.subscribe(d.mac, (e) => {
          if (e.kind === 'state') send(c, stateMessage(c, d.mac, e.state));
        }),
      );
    }
    const states = await repo.states(added.map((d) => d.id));
    for (const d of added) {
      send(
        c,
        stateMessage(
          c,
          d.mac,
          states.get(d.id) ?? { status: 'OFFLINE', fw: d.fw, connection: null, device: null },
        ),
      );
    }
  }

  function forward(c: Connection, mac: string, kind: 'data' | 'notification') {
    return (e: LiveEvent) => {
      if (kind === 'data' && e.kind === 'data') {
        if (e.topic === 'Data' && c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
        send(c, dataMessage(mac, e));
      } else if (
        kind === 'notification' &&
        e.kind === 'notification' &&
        e.inAppUserIds.includes(c.session.userId)
      ) {
        send(c, { status: 'OK', code: 200, topic: 'Notification', mac, data: e.entry });
      }
    };
  }

  async function handle(c: Connection, raw: string): Promise<void> {
    if (c.closed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return fail(c, ErrorCode.WsBadMessage, 'Message is not JSON');
    }
    const msg = LiveClientMessage.safeParse(parsed);
    if (!msg.success) return fail(c, ErrorCode.WsBadMessage, 'Unknown message');
    const m = msg.data;
    if ('userToken' in m) {
      if (!safeEqual(m.userToken, c.sessionToken))
        return fail(c, ErrorCode.WsSessionInvalid, 'Session invalid');
      if (m.state) {
        c.state ??= new Map();
        await syncStates(c);
      } else if (c.state) {
        for (const stop of c.state.values()) stop();
        c.state = null;
      }
      return;
    }
    const kind = 'data' in m ? 'data' : 'notification';
    const on = 'data' in m ? m.data : m.notification;
    const subs = c[kind];
    let device;
    try {
      device = await devices.resolve(c.session, m.deviceToken);
    } catch {
      return fail(c, ErrorCode.WsDeviceDenied, 'Device not available');
    }
    subs.get(device.mac)?.stop();
    subs.delete(device.mac);
    if (on)
      subs.set(device.mac, {
        token: m.deviceToken,
        stop: bus.subscribe(device.mac, forward(c, device.mac, kind)),
      });
  }

  async function recheck(c: Connection): Promise<void> {
    try {
      c.session = await auth.resolveSession(c.sessionToken);
    } catch {
      return fail(c, ErrorCode.WsSessionInvalid, 'Session expired');
    }
    for (const subs of [c.data, c.notification]) {
      for (const [, s] of subs) {
        try {
          await devices.resolve(c.session, s.token);
        } catch {
          return fail(c, ErrorCode.WsAssignmentEnded, 'Device assignment ended');
        }
      }
    }
    await syncStates(c);
  }

  const enqueue = (c: Connection, job: () => Promise<void>) => {
    c.queue = c.queue.then(job).catch((err: unknown) => {
      log?.error({ err }, 'websocket message failed');
      if (!c.closed) fail(c, ErrorCode.WsBadMessage, 'Unexpected error');
    });
  };

  async function recheckAll(): Promise<void> {
    await Promise.all(
      [...connections].map(
        (c) => new Promise<void>((resolve) => enqueue(c, () => recheck(c).finally(resolve))),
      ),
    );
  }

  return {
    /**
     * Takes a new socket; the session token is the cookie of the upgrade request. Messages that
     * arrive while the session is being checked wait in the connection's queue.
     */
    accept(socket: WebSocket, sessionToken: string | undefined): void {
      const c: Connection = {
        socket,
        sessionToken: sessionToken ?? '',
        session: { userId: 0, login: '', authType: 0, applications: [], expiresAtMs: 0, tokenHash: '' },
        state: null,
        data: new Map(),
        notification: new Map(),
        queue: Promise.resolve(),
        closed: false,
      };
      socket.on('message', (raw: Buffer) => enqueue(c, () => handle(c, raw.toString('utf8'))));
      socket.on('close', () => drop(c));
      socket.on('error', () => drop(c));
      enqueue(c, async () => {
        try {
          c.session = await auth.resolveSession(sessionToken);
          connections.add(c);
        } catch {
          fail(c, ErrorCode.WsSessionInvalid, 'Session invalid');
        }
      });
    },

    /** Re-checks every connection now (the timer does it every recheckMs). */
    recheckAll,

    start(): () => void {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        void recheckAll().finally(() => (running = false));
      }, deps.recheckMs ?? 5000);
      timer.unref();
      return () => clearInterval(timer);
    },

    get size(): number {
      return connections.size;
    },

    closeAll(): void {
      for (const c of [...connections]) {
        drop(c);
        c.socket.close(1001, 'server shutting down');
      }
    },
  };
}
/** The websocket hub. */
export type LiveHub = ReturnType<typeof createLiveHub>;
